#include "sdpa_attention_facts.hpp"

#include <cmath>
#include <cstdint>

#include "loupe/compute/findings_builder.hpp"
#include "loupe/compute/json_fields.hpp"
#include "sdpa_workload.hpp"

namespace loupe::sdpa {

namespace {

std::optional<double> optional_number(const Json& v) {
  if (v.is_number()) return v.as_double();
  return std::nullopt;
}

std::string call_stack_text(const Json& op) {
  std::string text;
  for (const char* key : {"call_chain", "module_chain"}) {
    const Json& list = compute::field(&op, key);
    if (!list.is_array()) continue;
    for (const auto& frame : list.as_array()) {
      if (frame.is_string()) text += frame.as_string() + "\n";
    }
  }
  const Json& launcher = compute::field(&op, "launcher_path");
  if (launcher.is_string()) text += launcher.as_string();
  return text;
}

}  // namespace

std::string number_text(double v) {
  if (std::isfinite(v) && std::fabs(v) < 9.0e15 && v == std::floor(v)) {
    return std::to_string(static_cast<std::int64_t>(v));
  }
  return compute::jnum(Json(v));
}

Framework framework_of(const Json& operation) {
  const std::string stack = call_stack_text(operation);
  if (stack.find("vllm/") != std::string::npos) return Framework::Vllm;
  if (stack.find("sglang/") != std::string::npos) return Framework::Sglang;
  if (stack.find("transformers/") != std::string::npos ||
      stack.find("modeling_") != std::string::npos) {
    return Framework::HuggingFace;
  }
  return Framework::PyTorch;
}

const char* framework_name(Framework framework) {
  switch (framework) {
    case Framework::HuggingFace:
      return "Hugging Face transformers";
    case Framework::Vllm:
      return "vLLM";
    case Framework::Sglang:
      return "SGLang";
    case Framework::PyTorch:
      break;
  }
  return "PyTorch";
}

std::string flash_path_selection(Framework framework, compute::GpuVendor vendor, bool hopper) {
  using compute::GpuVendor;
  switch (framework) {
    case Framework::HuggingFace:
      return "load the model with `attn_implementation=\"flash_attention_2\"` (or "
             "`attn_implementation=\"sdpa\"` with the flash SDPA backend)";
    case Framework::Vllm:
      if (vendor == GpuVendor::kAmd) {
        return "select the attention backend with the `VLLM_ATTENTION_BACKEND` environment "
               "variable (on ROCm: `ROCM_AITER_FA` with `VLLM_ROCM_USE_AITER=1`, `TRITON_ATTN` or "
               "`ROCM_ATTN`)";
      }
      if (vendor == GpuVendor::kNvidia) {
        return "select the attention backend with the `VLLM_ATTENTION_BACKEND` environment "
               "variable (e.g. `FLASH_ATTN` or `FLASHINFER`)";
      }
      return "select the attention backend with the `VLLM_ATTENTION_BACKEND` environment "
             "variable (`FLASH_ATTN` or `FLASHINFER` on NVIDIA, `ROCM_AITER_FA` or `TRITON_ATTN` "
             "on "
             "ROCm)";
    case Framework::Sglang:
      if (vendor == GpuVendor::kAmd) {
        return "select the attention backend with `--attention-backend` (on ROCm: `aiter`, or "
               "`triton`)";
      }
      if (vendor == GpuVendor::kNvidia) {
        return hopper ? "select the attention backend with `--attention-backend` (e.g. `fa3`, "
                        "`flashinfer` or `triton`)"
                      : "select the attention backend with `--attention-backend` (e.g. "
                        "`flashinfer` or `triton`)";
      }
      return "select the attention backend with `--attention-backend` (`flashinfer` or `triton`; "
             "`fa3` exists only on NVIDIA Hopper, `aiter` only on ROCm)";
    case Framework::PyTorch:
      break;
  }
  return "call `torch.nn.functional.scaled_dot_product_attention` inside `with "
         "torch.nn.attention.sdpa_kernel(SDPBackend.FLASH_ATTENTION):`, which raises instead of "
         "silently falling back to the unfused path";
}

EfficiencyBand expected_band(double n) {
  if (n < 512) return {5, 15};
  if (n < 2048) return {20, 40};
  if (n <= 4096) return {40, 60};
  return {50, 70};
}

std::string AttentionFacts::shape_text() const {
  std::string out;
  const auto add = [&](const char* label, const std::optional<double>& v) {
    if (!v) return;
    out += (out.empty() ? "" : ", ") + std::string(label) + number_text(*v);
  };
  add("B=", batch);
  add("N_Q=", seq_q);
  add("N_KV=", seq_kv);
  add("H_Q=", heads_q);
  add("H_KV=", heads_kv);
  add("head dim ", head_dim);
  return out;
}

AttentionFacts attention_facts(const Json& op) {
  AttentionFacts facts;
  const Json& classification = compute::field(&op, "classification");
  const std::string name =
      compute::field(&op, "name").is_string() ? compute::field(&op, "name").as_string() : "";
  const Json& type = compute::field(&classification, "attention_type");
  if (type.is_string()) {
    facts.type = type.as_string() == "paged"   ? AttentionType::Paged
                 : type.as_string() == "flash" ? AttentionType::Flash
                                               : AttentionType::Standard;
  } else {
    facts.type = attention_type(name, "");
  }
  const Json& params = compute::field(&op, "perf_params");
  if (params.is_string()) {
    const WorkloadProfile p = parse_perf_params(params.as_string());
    facts.batch = optional_number(p.batch_size);
    facts.seq_q = optional_number(p.n_q);
    facts.seq_kv = optional_number(p.n_kv);
    facts.heads_q = optional_number(p.h_q);
    facts.heads_kv = optional_number(p.h_kv);
    facts.head_dim = optional_number(p.d_h_qk);
    facts.workload_type = workload_type_name(p.workload_type);
  }
  const Json& kernels =
      compute::field(&compute::field(&classification, "kernel_breakdown"), "kernels");
  if (kernels.is_array()) {
    for (const auto& k : kernels.as_array()) {
      const auto pct = optional_number(compute::field(&k, "percent"));
      if (!pct) continue;
      const Json& role = compute::field(&k, "kernel_type");
      if (role.is_string() && role.as_string() == "reshape_cache") {
        facts.reshape_cache_percent = facts.reshape_cache_percent.value_or(0.0) + *pct;
      }
      if (!facts.dominant_kernel_percent || *pct > *facts.dominant_kernel_percent) {
        facts.dominant_kernel_percent = pct;
        const Json& kname = compute::field(&k, "name");
        facts.dominant_kernel = kname.is_string() ? kname.as_string() : std::string();
      }
    }
  }
  facts.framework = framework_of(op);
  // kernel_name: one kernel, or "Kernel 1: a<br>Kernel 2: b"; the attention kernel wins.
  const Json& kernel_text = compute::field(&op, "kernel_name");
  if (kernel_text.is_string()) {
    std::string_view rest = kernel_text.as_string();
    while (!rest.empty()) {
      const auto br = rest.find("<br>");
      std::string_view one = rest.substr(0, br);
      rest = br == std::string_view::npos ? std::string_view() : rest.substr(br + 4);
      if (one.starts_with("Kernel ")) {
        const auto colon = one.find(": ");
        if (colon != std::string_view::npos) one.remove_prefix(colon + 2);
      }
      const compute::KernelFamily family = compute::kernel_family(one);
      if (family.library == compute::KernelLibrary::kUnknown) continue;
      if (facts.kernel.empty() || (family.attention && !facts.family.attention)) {
        facts.kernel = std::string(one);
        facts.family = family;
      }
    }
  }
  if (facts.family.attention && facts.family.paged) {
    facts.type = AttentionType::Paged;
  } else if (facts.family.attention && facts.family.fused &&
             facts.type == AttentionType::Standard) {
    facts.type = AttentionType::Flash;
  }
  return facts;
}

std::optional<HeadDimWaste> head_dim_waste(double d) {
  if (!(d > 0) || d > 256) return std::nullopt;
  double padded = 8;
  while (padded < d) padded *= 2;
  if (padded == d) return std::nullopt;
  return HeadDimWaste{padded, (1 - d / padded) * 100};
}

}  // namespace loupe::sdpa
