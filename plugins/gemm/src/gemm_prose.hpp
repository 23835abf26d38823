// Findings prose for GEMMs. Both modes follow the GEMM analyzer prompt's action table (compute:
// tile-size / occupancy tuning and precision; memory: access patterns, epilogue fusion). In the
// default mode the cards quote each member's measured facts, and the action comes from the
// dominant member's shape (operations[].gemm_dims): a batched GEMM inside an attention module
// is replaced by a fused attention kernel; otherwise pad misaligned or off-tile dimensions,
// split-K / stream-K for few output tiles over a long K loop, batch or fuse tall-skinny
// memory-bound products.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gemm_shape.hpp"
#include "loupe/compute/card_facts.hpp"

namespace loupe::gemm {

class GemmProse : public compute::MeasuredProse {
 public:
  explicit GemmProse(bool measured_cards) : MeasuredProse(measured_cards) {}

  std::string document_title(const std::string& category) const override;
  std::string noun() const override { return "GEMM"; }
  std::vector<std::string> overview(const Json& metrics) const override;
  std::string no_data_message() const override;
  std::string action(const compute::FindingContext& f) const override;
  std::string resolution(const compute::FindingContext& f) const override;
  std::vector<std::string> reasoning_extras(const compute::FindingContext& f) const override;

 private:
  // The dominant member's shape and pattern (default mode only).
  struct Shape {
    GemmDims dims;
    ShapeDiagnosis diagnosis;
    std::string op_name;
    double flops_per_byte = 0.0;
    long long count = 0;
    bool attention = false;  // a batched GEMM inside an attention module
  };
  std::optional<Shape> shape(const compute::FindingContext& f) const;
};

// The sentence naming the dims to pad, e.g. "M from 4097 to 4160 and K from 4097 to 4160".
std::string padding_list(const std::vector<PaddedDim>& pad);

}  // namespace loupe::gemm
