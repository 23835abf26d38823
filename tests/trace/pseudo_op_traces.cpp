#include "pseudo_op_traces.hpp"

namespace loupe::test::pseudo {

namespace {

std::string complete(const std::string& cat, const std::string& name, int pid, int tid, int ts,
                     int dur, const std::string& args) {
  return R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":)" +
         std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":)" + args + "}";
}

}  // namespace

void TraceBuilder::cpu(const std::string& name, int ts, int dur, const std::string& args) {
  events_.push_back(complete("cpu_op", name, 1, 1, ts, dur, args));
}

void TraceBuilder::python(const std::string& name, int ts, int dur) {
  events_.push_back(complete("python_function", name, 1, 1, ts, dur,
                             R"({"Python id":)" + std::to_string(next_python_id_++) + "}"));
}

void TraceBuilder::annotation(const std::string& name, int ts, int dur) {
  events_.push_back(complete("user_annotation", name, 1, 1, ts, dur, "{}"));
}

void TraceBuilder::kernel(const std::string& name, int launch_ts, int kernel_ts) {
  const std::string id = std::to_string(next_correlation_++);
  events_.push_back(complete("cuda_runtime", "hipLaunchKernel", 1, 1, launch_ts, 2,
                             R"({"correlation":)" + id + "}"));
  events_.push_back(complete("kernel", name, 0, 7, kernel_ts, 10,
                             R"({"correlation":)" + id + R"(,"stream":7,"device":0})"));
  events_.push_back(R"({"ph":"s","id":)" + id + R"(,"pid":1,"tid":1,"ts":)" +
                    std::to_string(launch_ts) + R"(,"cat":"ac2g","name":"ac2g"})");
  events_.push_back(R"({"ph":"f","id":)" + id + R"(,"pid":0,"tid":7,"ts":)" +
                    std::to_string(kernel_ts) + R"(,"cat":"ac2g","name":"ac2g","bp":"e"})");
}

void TraceBuilder::raw(const std::string& events) { events_.push_back(events); }

std::string TraceBuilder::events() const {
  std::string out;
  for (const auto& e : events_) {
    if (!out.empty()) out += ",";
    out += e;
  }
  return out;
}

std::string TraceBuilder::text() const { return R"({"traceEvents":[)" + events() + "]}"; }

std::string aiter_fused_moe_events(bool two_fused) {
  TraceBuilder t;
  t.cpu("vllm::moe_forward", 0, 1000, R"({"Input Dims":[[4,64],[4,8]]})");
  std::string concrete = "[";
  for (int i = 0; i < 9; ++i) concrete += i == 8 ? "\"2\"]" : "\"\",";
  t.cpu("vllm::rocm_aiter_fused_moe", 10, 500,
        R"({"Sequence number":77,"Input Dims":[[4,64],[8,256,64],[8,64,128],[4,2],[4,2]],)"
        R"("Input type":["c10::BFloat16","c10::Float8_e4m3fnuz","c10::Float8_e4m3fnuz",)"
        R"("float","int"],"Concrete Inputs":)" +
            concrete + "}");
  t.kernel("MoeSortingKernel", 20, 1000);
  t.kernel("aiter::fmoe_g1u1_bf16", 40, 1100);
  if (two_fused) t.kernel("aiter::fmoe_g1u1_bf16", 60, 1200);
  return t.events();
}

std::string aiter_fused_moe_trace(bool two_fused) {
  return R"({"traceEvents":[)" + aiter_fused_moe_events(two_fused) + "]}";
}

std::string triton_moe_trace(bool scatter) {
  TraceBuilder t;
  t.cpu("vllm::moe_forward", 0, 400,
        R"({"Input Dims":[[32,3072],[32,32],[],[]],)"
        R"("Input type":["c10::BFloat16","c10::BFloat16","",""]})");
  t.cpu("TopK", 10, 20,
        R"({"Input Dims":[[32,32],[],[],[],[],[],[]],)"
        R"("Concrete Inputs":["","4","True","1","True","",""]})");
  t.kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1", 100, 1200);
  t.kernel("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu", 200, 1000);
  if (scatter) t.kernel("_finalize_matmul_scatter", 300, 1400);
  return t.text();
}

std::string gptq_moe_trace() {
  TraceBuilder t;
  t.cpu("vllm::outplace_fused_experts", 0, 400,
        R"({"Sequence number":9,"Input Dims":[[4,64],[8,256,32],[8,64,64],[4,2],[4,2]],)"
        R"("Input type":["c10::BFloat16","c10::Int","c10::Int","float","int"]})");
  t.kernel("fused_moe_kernel_gptq_awq", 100, 1000);
  t.kernel("fused_moe_kernel_gptq_awq", 200, 1200);
  return t.text();
}

std::string flydsl_moe_trace(bool under_fused_moe) {
  TraceBuilder t;
  const int base = under_fused_moe ? 0 : 1000;
  t.cpu("aiter::fused_moe_", 0, 500,
        R"({"Sequence number":31,"Input Dims":[[4,64],[8,256,32],[8,64,64],[4,2]],)"
        R"("Input type":["c10::BFloat16","c10::Float4_e2m1fn_x2","c10::Float4_e2m1fn_x2",)"
        R"("float"]})");
  t.python("aiter/fused_moe.py(10): flydsl_moe_stage1", base + 100, 100);
  t.kernel("flydsl_moe_stage1_kernel", base + 110, 2000);
  t.python("aiter/fused_moe.py(20): flydsl_moe_stage2", base + 250, 100);
  t.kernel("flydsl_moe_stage2_kernel", base + 260, 2100);
  return t.text();
}

std::string mla_trace(bool with_stage1) {
  TraceBuilder t;
  t.annotation(kMlaStep, 0, 2000);
  t.python("aiter/mla.py(123): mla_decode_fwd", 100, 300);
  t.cpu(with_stage1 ? "aiter::mla_decode_stage1_asm_fwd" : "aiter::mla_decode_other", 110, 100,
        R"({"Input Dims":[[5,8,64],[5,2,64],[5,2,64]],)"
        R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16"]})");
  t.kernel("mla_stage1_kernel", 120, 3000);
  t.cpu("aiter::mla_reduce_v1", 250, 100);
  t.kernel("mla_reduce_kernel", 260, 3100);
  // The decode op must exist for the recognizer to be selected.
  if (!with_stage1) t.cpu("aiter::mla_decode_stage1_asm_fwd", 1500, 10);
  t.python("sglang/attention.py(7): mla_fp8_prefill_attn", 500, 300);
  t.cpu("aiter::mla_prefill_ps_asm_fwd", 510, 100,
        R"({"Input Dims":[[5,8,64],[5,2,64],[5,2,128]],)"
        R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16"]})");
  t.kernel("mla_prefill_kernel", 520, 3200);
  return t.text();
}

std::string v4_decode_trace(bool hca) {
  TraceBuilder t;
  t.cpu("aiter::v4_attention_with_output", 0, 1000,
        R"({"Input Dims":[[4,64,576]],"Input type":["c10::BFloat16"]})");
  t.kernel("qk_norm_rope_H64_D512_RD64", 10, 2000);
  if (hca) t.kernel("hca_compress_forward_kernel", 20, 2050);
  t.python("deepseek/paged_decode.py(55): sparse_attn_v4_paged_decode", 100, 300);
  t.kernel("sparse_decode_split_kernel", 110, 2100);
  return t.text();
}

}  // namespace loupe::test::pseudo
