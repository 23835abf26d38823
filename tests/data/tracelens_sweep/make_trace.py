#!/usr/bin/env python3
"""Writes the op-sweep trace: every op of op_specs.jsonl launched twice, each on its own kernel.

  make_trace.py op_specs.jsonl serving_ops.json   (then gzip -n)

One line of op_specs.jsonl is one op: its name, the four shape/type args the profiler records
(dims, types, strides, concrete; null when absent), the kernel names it runs (the first is used;
a generic name when empty) and the serving step label enclosing it (a user annotation; "" for
none). Each op is a cpu_op with a runtime launch and its kernel on one stream, linked by a flow
event, 50 us apart, in the layout PyTorch's profiler writes.
"""
import json
import sys


def main(specs_path, out_path):
    specs = [json.loads(line) for line in open(specs_path) if line.strip()]
    events = []
    t, correlation = 1000000, 1
    for repeat in range(2):
        for i, spec in enumerate(specs):
            args = {"External id": correlation}
            for key, arg in (("dims", "Input Dims"), ("types", "Input type"),
                             ("strides", "Input Strides"), ("concrete", "Concrete Inputs")):
                if spec[key] is not None:
                    args[arg] = spec[key]
            if spec["step"]:
                events.append({"ph": "X", "cat": "user_annotation", "name": spec["step"],
                               "pid": 100, "tid": 100, "ts": t - 1, "dur": 40,
                               "args": {"External id": correlation + 100000}})
            events.append({"ph": "X", "cat": "cpu_op", "name": spec["name"], "pid": 100,
                           "tid": 100, "ts": t, "dur": 30, "args": args})
            kernel = spec["kernels"][0] if spec["kernels"] else "sweep_kernel_%d" % i
            events.append({"ph": "X", "cat": "cuda_runtime", "name": "hipLaunchKernel",
                           "pid": 100, "tid": 100, "ts": t + 2, "dur": 5,
                           "args": {"External id": correlation, "correlation": correlation}})
            events.append({"ph": "s", "id": correlation, "pid": 100, "tid": 100, "ts": t + 2,
                           "cat": "ac2g", "name": "ac2g"})
            events.append({"ph": "X", "cat": "kernel", "name": kernel, "pid": 2, "tid": 0,
                           "ts": t + 10, "dur": 8 + i % 7 + repeat,
                           "args": {"External id": correlation, "correlation": correlation,
                                    "device": 0, "stream": 0, "grid": [64, 1, 1],
                                    "block": [256, 1, 1]}})
            events.append({"ph": "f", "id": correlation, "pid": 2, "tid": 0, "ts": t + 10,
                           "cat": "ac2g", "name": "ac2g", "bp": "e"})
            t += 50
            correlation += 1
    events.append({"name": "process_name", "ph": "M", "ts": 999000, "pid": 100, "tid": 0,
                   "args": {"name": "python"}})
    with open(out_path, "w") as out:
        json.dump({"schemaVersion": 1, "traceEvents": events}, out)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
