// Measured facts about the members of one finding, for card prose: the op, its kernels and
// library, its measured kernel time, its efficiency against the roofline and its bound type,
// all quoted from the metrics document (never recomputed).
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/compute/findings_builder.hpp"

namespace loupe::compute {

// "`aten::mm` (kernel `Cijk_...`, library Tensile) takes 3.672 ms over 10 calls at 52.91% of
// the 708 TFLOPS roofline, compute-bound"; comparative: the Trace 1 and Trace 2 times.
std::string member_facts(const FindingContext& f, size_t member);

// The facts of the first max_members members joined with "; ", then "and N more operations
// (T ms)" for the rest.
std::string members_facts(const FindingContext& f, size_t max_members = 3);

// The first member's operations[] entry that was found (nullptr when none was).
const Json* dominant_operation(const FindingContext& f);

// The distinct member op names, backticked and joined ("`aten::add`, `aten::mul` and 2 more").
std::string member_names(const FindingContext& f, size_t max_names = 3);

// The largest call count among the members' operations (0 when unknown).
long long max_member_count(const FindingContext& f);

// An op name without its namespace and trailing underscores, lower case: "aten::add_" -> "add".
std::string op_base_name(std::string_view op_name);

// The distinct labels classify() gives the members' op names, in the order of `order`.
std::vector<std::string> member_labels(const FindingContext& f,
                                       const std::function<std::string(std::string_view)>& classify,
                                       const std::vector<std::string>& order);

// Prose whose default-mode cards state each member's measured facts (members_facts) as the
// Insight; with measured_cards false (compat) it is the base prose.
class MeasuredProse : public FindingsProse {
 public:
  explicit MeasuredProse(bool measured_cards) : measured_(measured_cards) {}
  std::string insight(const FindingContext& f) const override;

 protected:
  bool measured() const { return measured_; }

 private:
  bool measured_;
};

}  // namespace loupe::compute
