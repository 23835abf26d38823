// Hand-written traces where each pseudo-op recognizer fires (or must not), shared by the tree
// tests (pseudo_ops_test.cpp) and the prepared-table tests (cli_pseudo_ops_test.cpp).
#pragma once

#include <string>
#include <vector>

namespace loupe::test::pseudo {

// Events on host thread (pid 1, tid 1); kernels on GPU stream (pid 0, tid 7).
class TraceBuilder {
 public:
  void cpu(const std::string& name, int ts, int dur, const std::string& args = "{}");
  void python(const std::string& name, int ts, int dur);
  void annotation(const std::string& name, int ts, int dur);
  // A hipLaunchKernel at `launch_ts` (2 us) and its kernel at `kernel_ts` (10 us), with flows.
  void kernel(const std::string& name, int launch_ts, int kernel_ts);
  void raw(const std::string& events);  // comma-separated events
  std::string events() const;
  std::string text() const;

 private:
  std::vector<std::string> events_;
  int next_correlation_ = 100;
  int next_python_id_ = 1;
};

// vllm::moe_forward > vllm::rocm_aiter_fused_moe (sequence number 77; hidden [4, 64] bf16, FP8
// weights [8, 256, 64] and [8, 64, 128], top-k weights and ids [4, 2]) launching a sorting kernel
// and the fused kernel `aiter::fmoe_g1u1_bf16` (twice when `two_fused`).
std::string aiter_fused_moe_events(bool two_fused);
std::string aiter_fused_moe_trace(bool two_fused);
// vllm::moe_forward over 32 tokens of hidden 3072 routed to 4 of 32 experts: its TopK, the
// down then the gated up matmul_ogs kernel (launch order), the up one first on the GPU, and a
// matmul_scatter kernel when `scatter`.
std::string triton_moe_trace(bool scatter);
// vllm::outplace_fused_experts (sequence 9; hidden [4, 64], w1 [8, 256, 32], w2 [8, 64, 64],
// topk_ids [4, 2]) launching two fused_moe_kernel_gptq_awq kernels.
std::string gptq_moe_trace();
// aiter::fused_moe_ (sequence 31; hidden [4, 64] bf16, MXFP4 w1 [8, 256, 32], w2 [8, 64, 64],
// top-k weights [4, 2]) over the two flydsl stage frames, each launching a kernel; with
// `under_fused_moe` false the frames run outside it.
std::string flydsl_moe_trace(bool under_fused_moe);
// A step annotation over an MLA decode frame (stage-1 op Q [5, 8, 64], K/V [5, 2, 64] bf16, and
// a reduce op, each launching a kernel) and an FP8 MLA prefill frame (prefill op, V [5, 2, 128]).
// Without `with_stage1` the decode frame's op is another one.
inline constexpr const char* kMlaStep =
    "execute_4_context_1(sq4sk6sqsq16sqsk24)_generation_0(sq0sk0sqsq0sqsk0)";
std::string mla_trace(bool with_stage1);
// aiter::v4_attention_with_output (Input Dims [[4,64,576]]) launching qk_norm_rope_H64_D512_RD64
// (and an HCA compression kernel when `hca`), then a sparse_attn_v4_paged_decode frame
// launching the decode kernel.
std::string v4_decode_trace(bool hca);

}  // namespace loupe::test::pseudo
