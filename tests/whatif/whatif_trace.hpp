// Small hand-written traces for the what-if tests: host calls, kernels on chosen streams linked
// to their launch by ac2g flows, step annotations. Times are µs.
#pragma once

#include <string>

namespace loupe::test::whatif_trace {

class TraceText {
 public:
  // A host event (cpu_op, cuda_runtime, user_annotation, ...) on pid 1, tid 1.
  TraceText& host(const std::string& cat, const std::string& name, double ts, double dur);
  // `launch_name` at `ts` (`launch_dur` µs) linked by a flow to `kernel` on `stream` (pid 0).
  TraceText& launch(const std::string& kernel, double ts, double kernel_ts, double kernel_dur,
                    int stream = 7, const std::string& launch_name = "cudaLaunchKernel",
                    const std::string& kernel_cat = "kernel", double launch_dur = 5);
  // A kernel no host call launches (no flow, no correlation).
  TraceText& orphan_kernel(const std::string& kernel, double ts, double dur, int stream = 7);
  std::string document() const;

 private:
  std::string events_;
  int next_id_ = 100;
};

}  // namespace loupe::test::whatif_trace
