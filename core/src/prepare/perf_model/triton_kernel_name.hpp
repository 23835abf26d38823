// What an inductor kernel's name says about the ATen ops it fuses (inductor model, §3.9.2).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loupe::core::prepare::perf::detail {

// The fused ops named by `triton_{poi,red,per}_fused_<ops>_<n>`, as "aten.<op>", in name order;
// empty when the name has another shape. The <ops> text is split greedily into the longest
// known PyTorch op names; a word that starts no known name is skipped.
std::vector<std::string> inductor_fused_ops(std::string_view kernel_name);

// Arithmetic operations per element the inductor model charges for a fused op ("aten.add" ->
// 1, "aten.exp" -> 4); ops it does not list, memory-only ops included, count 0.
int inductor_flops_per_element(std::string_view aten_op);

}  // namespace loupe::core::prepare::perf::detail
