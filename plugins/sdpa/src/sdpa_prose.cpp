#include "sdpa_prose.hpp"

#include <cmath>

#include "loupe/compute/finding_facts.hpp"
#include "loupe/compute/json_fields.hpp"
#include "sdpa_attention_facts.hpp"

namespace loupe::sdpa {

namespace {

std::string num(double v) { return number_text(v); }

// The decision the action and resolution follow, in priority order.
enum class Lever {
  Unfused,          // no flash / paged marker: migrate to the flash path
  PagedKvCache,     // reshape_and_cache above 10 % of the op
  PagedPrefill,     // prefill-heavy paged workload
  PagedDecode,      // decode-heavy paged workload
  PagedKernel,      // paged attention otherwise
  HeadDimPadding,   // head dim not a power of two
  LargeHeadDim,     // head dim above 128
  LongSequenceLow,  // N >= 2048 below the expected band
  ShortSequence,    // N < 512
  Backward,         // sdpa backward kernels
  KernelTuning,     // flash already used, nothing else applies
};

struct Decision {
  Lever lever = Lever::KernelTuning;
  AttentionFacts facts;
};

Decision decide(const compute::FindingContext& f) {
  Decision d;
  const Json* op = compute::dominant_operation(f);
  if (op == nullptr) return d;
  d.facts = attention_facts(*op);
  const AttentionFacts& a = d.facts;
  if (a.type == AttentionType::Paged) {
    if (a.reshape_cache_percent && *a.reshape_cache_percent > 10) {
      d.lever = Lever::PagedKvCache;
    } else if (a.workload_type == "prefill_heavy") {
      d.lever = Lever::PagedPrefill;
    } else if (a.workload_type == "decode_heavy") {
      d.lever = Lever::PagedDecode;
    } else {
      d.lever = Lever::PagedKernel;
    }
    return d;
  }
  if (a.type == AttentionType::Standard) {
    d.lever = Lever::Unfused;
    return d;
  }
  const std::string name =
      compute::field(op, "name").is_string() ? compute::field(op, "name").as_string() : "";
  if (name.find("backward") != std::string::npos || name.find("bwd") != std::string::npos) {
    d.lever = Lever::Backward;
    return d;
  }
  if (a.head_dim && head_dim_waste(*a.head_dim)) {
    d.lever = Lever::HeadDimPadding;
    return d;
  }
  if (a.head_dim && *a.head_dim > 128) {
    d.lever = Lever::LargeHeadDim;
    return d;
  }
  const auto n = a.sequence_length();
  const double eff = f.min_efficiency();
  if (n && *n >= 2048 && !std::isnan(eff) && eff < expected_band(*n).low) {
    d.lever = Lever::LongSequenceLow;
  } else if (n && *n < 512) {
    d.lever = Lever::ShortSequence;
  }
  return d;
}

const char* implementation_text(AttentionType type) {
  switch (type) {
    case AttentionType::Paged:
      return "paged attention (vLLM-style KV cache)";
    case AttentionType::Flash:
      return "flash attention (fused)";
    case AttentionType::Standard:
      break;
  }
  return "standard attention with no flash or paged marker (unfused)";
}

// The implementation with the kernel family when it is known: "AITER's fused paged attention
// kernel `FmhaBatchPrefillWithPagedKVCacheKernel`".
std::string implementation_of(const AttentionFacts& a) {
  if (!a.family.attention || a.kernel.empty()) return implementation_text(a.type);
  const std::string lib = compute::kernel_library_name(a.family.library);
  std::string what = lib + "'s " + (a.family.fused ? "fused " : "") +
                     (a.family.paged ? "paged attention kernel" : "flash attention kernel");
  const std::string shown = a.kernel.size() > 80 ? a.kernel.substr(0, 77) + "..." : a.kernel;
  return what + " `" + shown + "`";
}

// The engine's switches for the paged-attention levers.
struct PagedSwitches {
  std::string block_size, chunked_prefill, batch;
};
PagedSwitches paged_switches(Framework framework) {
  if (framework == Framework::Sglang) {
    return {"SGLang `--page-size`", "SGLang `--chunked-prefill-size`",
            "SGLang `--max-running-requests`"};
  }
  if (framework == Framework::Vllm) {
    return {"vLLM `--block-size`", "vLLM `--enable-chunked-prefill`", "vLLM `--max-num-seqs`"};
  }
  return {"the engine's KV-cache block / page size", "the engine's chunked prefill",
          "the engine's maximum number of running sequences"};
}

}  // namespace

std::string SdpaProse::document_title(const std::string& category) const {
  std::string display = "Attention (" + category + ")";
  if (category == "sdpa_fwd") display = "Forward attention (sdpa_fwd)";
  if (category == "sdpa_bwd") display = "Backward attention (sdpa_bwd)";
  if (category == "inferenceattention") display = "Inference attention (inferenceattention)";
  return "SDPA Findings: " + display;
}

std::vector<std::string> SdpaProse::overview(const Json& metrics) const {
  auto items = FindingsProse::overview(metrics);
  const Json* block = metrics.find("category_specific");
  if (block == nullptr || !block->is_object()) return items;
  const bool flash = compute::field(block, "flash_attention_detected").is_bool() &&
                     compute::field(block, "flash_attention_detected").as_bool();
  const bool paged = compute::field(block, "paged_attention_detected").is_bool() &&
                     compute::field(block, "paged_attention_detected").as_bool();
  std::string impl = "Attention implementation: ";
  if (flash)
    impl += "Flash Attention (" + compute::jnum(compute::field(block, "flash_attention_count")) +
            " ops)";
  if (paged) {
    impl += std::string(flash ? "; " : "") + "Paged Attention (" +
            compute::jnum(compute::field(block, "paged_attention_count")) + " ops)";
  }
  if (!flash && !paged) impl += "neither Flash nor Paged Attention detected (unfused attention)";
  items.push_back(impl);
  const Json& avg = compute::field(block, "kernel_breakdown_avg");
  if (avg.is_object()) {
    items.push_back("Paged-attention kernel breakdown (average share): reshape_and_cache " +
                    compute::jnum(compute::field(&avg, "avg_reshape_cache_percent")) +
                    "%, fwd kernel " +
                    compute::jnum(compute::field(&avg, "avg_fwd_kernel_percent")) +
                    "%, paged-attention kernel " +
                    compute::jnum(compute::field(&avg, "avg_paged_attention_percent")) + "%");
  }
  const Json& profile = compute::field(block, "workload_profile");
  if (profile.is_object()) {
    items.push_back("Workload profile: " + compute::jnum(compute::field(&profile, "profile_type")) +
                    " (" + compute::jnum(compute::field(&profile, "total_ctx_tokens")) +
                    " context / " + compute::jnum(compute::field(&profile, "total_gen_tokens")) +
                    " generated tokens, ctx_ratio " +
                    compute::jnum(compute::field(&profile, "ctx_ratio")) + ")");
  }
  return items;
}

std::string SdpaProse::no_data_message() const { return "No SDPA operations found in trace."; }

std::string SdpaProse::insight(const compute::FindingContext& f) const {
  if (f.comparative) return FindingsProse::insight(f);
  const Json* op = compute::dominant_operation(f);
  if (op == nullptr) return FindingsProse::insight(f);
  const AttentionFacts a = attention_facts(*op);
  std::string what = implementation_text(a.type);  // the kernel and library follow it
  const std::string shape = a.shape_text();
  if (!shape.empty()) what += ", " + shape;
  return compute::measured_facts(f, what);
}

std::string SdpaProse::action(const compute::FindingContext& f) const {
  const Decision d = decide(f);
  const AttentionFacts& a = d.facts;
  const std::string select = flash_path_selection(a.framework, a.family.vendor, a.family.hopper);
  const std::string fw = framework_name(a.framework);
  const PagedSwitches paged = paged_switches(a.framework);
  // A kernel already fused needs no switch to "the flash path": only another fused backend of
  // the platform, where the framework offers a choice.
  const bool already_fused = a.family.attention && a.family.fused;
  const std::string kernel_ref =
      already_fused ? implementation_of(a) : std::string("the flash kernel");
  switch (d.lever) {
    case Lever::Unfused:
      return "Migrate to a fused flash-attention path: in " + fw + " (seen in the call stack), " +
             select + ".";
    case Lever::PagedKvCache:
      return "The KV-cache write (`reshape_and_cache`) takes " +
             num(std::round(*a.reshape_cache_percent * 100) / 100) +
             "% of the attention op: tune the KV-cache block size (" + paged.block_size +
             ", test 16, 32 and 64) and check the reshape kernel's memory access pattern.";
    case Lever::PagedPrefill:
      return "Prefill-heavy paged attention: enable chunked prefill (" + paged.chunked_prefill +
             ") to bound per-step latency, and profile the prefill kernel for tile-size tuning.";
    case Lever::PagedDecode:
      return "Decode-heavy paged attention: raise the decode batch (" + paged.batch +
             ") so each launch amortizes the KV-cache reads, and consider speculative decoding.";
    case Lever::PagedKernel:
      return "Profile the dominant paged-attention kernel" +
             (a.dominant_kernel ? " (`" + *a.dominant_kernel + "`)" : std::string()) +
             " for tile-size tuning, or try another attention backend: in " + fw + ", " + select +
             ".";
    case Lever::HeadDimPadding: {
      const auto waste = head_dim_waste(*a.head_dim);
      return "Head dim " + num(*a.head_dim) +
             " is not a power of two: flash kernels commonly pad it to " + num(waste->padded) +
             "-wide head-dim tiles, so up to about " +
             num(std::round(waste->waste_percent * 10) / 10) +
             "% of the QK^T and PV work can be padding. Choose a supported head dim (pad the "
             "projection to " +
             num(waste->padded) + ", or re-split the heads to 128) when the model allows.";
    }
    case Lever::LargeHeadDim:
      return "Head dim " + num(*a.head_dim) +
             " is above 128: flash kernels then need more on-chip memory per tile, which typically "
             "lowers their occupancy. Re-split "
             "the heads to head dim 128 (twice the heads) if the model allows, else profile the "
             "flash kernel for tile-size tuning.";
    case Lever::LongSequenceLow:
      if (already_fused) {
        return "Long sequence (N=" + num(*a.sequence_length()) +
               ") below the expected flash efficiency although it already runs " + kernel_ref +
               ": profile that kernel for tile-size tuning" +
               (a.framework == Framework::PyTorch
                    ? std::string(".")
                    : ", and compare another fused backend on the same shapes (in " + fw + ", " +
                          select + ").");
      }
      return "Long sequence (N=" + num(*a.sequence_length()) +
             ") below the expected flash efficiency: make sure the fastest flash backend runs " +
             "\xE2\x80\x94 in " + fw + ", " + select +
             " \xE2\x80\x94 then profile the kernel for tile-size tuning.";
    case Lever::ShortSequence:
      return "Short sequences (N=" + num(*a.sequence_length()) +
             ") leave the kernel overhead-dominated: batch more sequences per call (pack "
             "variable-length sequences), or capture the step in a GPU graph "
             "(`torch.compile(mode=\"reduce-overhead\")` / `torch.cuda.graph`).";
    case Lever::Backward:
      return "Profile the flash backward kernel for tile / block tuning; backward recomputes the "
             "attention weights, so it is expected below the forward's efficiency.";
    case Lever::KernelTuning:
      break;
  }
  if (f.heuristic()) {
    if (already_fused) {
      return "`" + compute::lead_operation_name(f) +
             "` has no performance model, so its roofline gap is not measured; it already runs " +
             kernel_ref + ": profile that kernel on the same shapes for tile-size tuning.";
    }
    return "`" + compute::lead_operation_name(f) +
           "` has no performance model, so its roofline gap is not measured: profile its kernels "
           "on the same shapes against the flash path of " +
           fw + ": " + select + ".";
  }
  if (f.bound_type() == "memory") {
    return "Optimize the memory access pattern of the flash kernel (flash tile size is not "
           "visible in the trace); SDPA backends are already fused, so fusion is not the lever.";
  }
  return "Profile the flash kernel for tile-size and wave-occupancy tuning (flash tile size is "
         "not visible in the trace).";
}

std::string SdpaProse::resolution(const compute::FindingContext& f) const {
  switch (decide(f).lever) {
    case Lever::Unfused:
      return "A flash kernel computes softmax(QK^T)V in on-chip tiles, so the attention matrix is "
             "never written to memory and the separate matmul / softmax launches disappear.";
    case Lever::PagedKvCache:
      return "A block size matched to the sequence lengths cuts the scattered writes and index "
             "work of the cache update.";
    case Lever::HeadDimPadding:
    case Lever::LargeHeadDim:
      return "With a head dim the kernel tiles natively, every tile does useful work and more "
             "tiles fit on each compute unit.";
    case Lever::ShortSequence:
      return "More work per launch amortizes the fixed launch and setup cost that dominates short "
             "sequences.";
    default:
      break;
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> SdpaProse::expectation_sentences(const compute::FindingContext& f) const {
  const Decision d = decide(f);
  const auto n = d.facts.sequence_length();
  if (!n || d.facts.type == AttentionType::Paged) return {};
  const EfficiencyBand band = expected_band(*n);
  const double eff = f.min_efficiency();
  std::string s = "At sequence length N=" + num(*n) + " attention is expected to reach " +
                  num(band.low) + "\xE2\x80\x93" + num(band.high) + "% of roofline";
  if (std::isnan(eff)) return {s + "."};
  if (eff < band.low) return {s + "; these members are below that band."};
  return {s + "; these members are within or above it, so low efficiency here is expected " +
          "overhead rather than a kernel defect."};
}

std::vector<std::string> SdpaProse::identification_extras(const compute::FindingContext& f) const {
  const Json* op = compute::dominant_operation(f);
  if (op == nullptr) return {};
  const AttentionFacts a = attention_facts(*op);
  std::vector<std::string> out{"Detected implementation: " + implementation_of(a) + "."};
  if (a.type == AttentionType::Paged && a.dominant_kernel) {
    out.push_back("Its dominant kernel-breakdown component is `" + *a.dominant_kernel + "` (" +
                  num(*a.dominant_kernel_percent) +
                  "% of the breakdown); workload profile: " + a.workload_type + ".");
  }
  if (a.heads_q && a.heads_kv && *a.heads_kv < *a.heads_q) {
    out.push_back("Grouped-query attention (" + num(*a.heads_q) + " query heads / " +
                  num(*a.heads_kv) +
                  " KV heads) lowers KV-cache traffic but may lower kernel efficiency slightly "
                  "against MHA.");
  }
  const auto n = a.sequence_length();
  if (n && *n < 1024 && f.bound_type() == "memory") {
    out.push_back(
        "Short sequences (N < 1024) naturally show lower efficiency because memory "
        "overhead dominates.");
  }
  return out;
}

std::vector<std::string> SdpaProse::reasoning_extras(const compute::FindingContext& f) const {
  const Json* op = compute::dominant_operation(f);
  if (op == nullptr) return {};
  if (attention_facts(*op).type == AttentionType::Paged) {
    return {"Per-request KV-cache hit rate not visible from trace data."};
  }
  return {"Flash tile size not visible " + std::string(kDash) +
          " profile the kernel for tile-size tuning."};
}

}  // namespace loupe::sdpa
