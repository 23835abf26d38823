// What the findings prose knows about the attention operation behind a finding: implementation,
// shape (sequence lengths, head dim, heads, batch), the expected efficiency band for its
// sequence length, the serving framework seen in its call stack, and the paged-attention kernel
// shares. Read from one operations[] entry of the metrics.
#pragma once

#include <optional>
#include <string>

#include "loupe/compute/kernel_family.hpp"
#include "loupe/json_value.hpp"
#include "sdpa_detection.hpp"

namespace loupe::sdpa {

// An em dash (U+2014): what a table cell or a sentence shows for a value the trace lacks.
inline constexpr const char* kDash = "\xE2\x80\x94";

enum class Framework { PyTorch, HuggingFace, Vllm, Sglang };

// From the op's call_chain, launcher_path and module_chain.
Framework framework_of(const Json& operation);
const char* framework_name(Framework framework);
// How to select the flash / fused attention path in that framework, naming only backends that
// exist on the vendor the kernels show (`fa3` only on NVIDIA Hopper, AITER on ROCm).
std::string flash_path_selection(Framework framework, compute::GpuVendor vendor = {},
                                 bool hopper = false);

// Expected roofline efficiency of flash / standard attention at sequence length N.
struct EfficiencyBand {
  double low = 0.0;
  double high = 0.0;
};
EfficiencyBand expected_band(double sequence_length);

struct AttentionFacts {
  AttentionType type = AttentionType::Standard;
  std::optional<double> batch, seq_q, seq_kv, heads_q, heads_kv, head_dim;
  std::string workload_type = "unknown";  // paged: prefill_heavy, decode_heavy, mixed, unknown
  std::optional<double> reshape_cache_percent;  // paged: share of the reshape_and_cache kernel
  std::optional<std::string> dominant_kernel;   // paged: the largest breakdown component
  std::optional<double> dominant_kernel_percent;
  Framework framework = Framework::PyTorch;
  // The op's attention kernel (else its first kernel of a known library) and its family
  // (loupe/compute/kernel_family.hpp): a fused or paged kernel corrects a name-only
  // "standard" type; the vendor selects the platform's backends.
  std::string kernel;
  compute::KernelFamily family;

  // The sequence length the expectations use: the key/value length, else the query length.
  std::optional<double> sequence_length() const { return seq_kv ? seq_kv : seq_q; }
  // "B=1, N_Q=32768, N_KV=32768, H_Q=32, H_KV=32, head dim 128" (what is known).
  std::string shape_text() const;
};

AttentionFacts attention_facts(const Json& operation);

// A shape or percentage number for prose: integral values without a decimal part ("128"),
// others as Python prints them ("25.09").
std::string number_text(double value);

// Head dims that flash kernels tile without padding: powers of two up to 256. For any other
// head dim, the next power of two (the padded tile) and the wasted share of the work.
struct HeadDimWaste {
  double padded = 0.0;
  double waste_percent = 0.0;
};
std::optional<HeadDimWaste> head_dim_waste(double head_dim);

}  // namespace loupe::sdpa
