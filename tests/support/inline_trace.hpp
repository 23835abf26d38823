// Small PyTorch-profiler traces written inline by tests: host ops, kernel launches linked by
// ac2g flows, and the document around them. Times are µs; every event ends with a comma and
// trace_document() drops the last one.
#pragma once

#include <string>

namespace loupe::test::inline_trace {

// A Python-style number: 12 -> "12.0", 1.5 -> "1.5" (traces write float timestamps).
std::string number(double value);

// A cpu_op spanning [ts, ts + dur); `args` is the text inside args {...}.
std::string cpu_op(const std::string& name, double ts, double dur, const std::string& args = "");

// cudaLaunchKernel at `ts` linked by flow `id` to `kernel` running [kernel_ts, kernel_ts +
// kernel_dur) on stream 7: 4 events (launch, flow start, flow end, kernel).
std::string launch(const std::string& kernel, int id, double ts, double kernel_ts,
                   double kernel_dur);

// A cpu_op at `ts` (8 µs, External id `id`) launching one kernel `kernel` of `kernel_dur` µs
// that starts 1000 µs later.
std::string op_with_kernel(const std::string& op, const std::string& kernel, int id, double ts,
                           double kernel_dur, const std::string& args = "");

// {"traceEvents": [events]} (the trailing comma of `events` removed).
std::string trace_document(std::string events);

}  // namespace loupe::test::inline_trace
