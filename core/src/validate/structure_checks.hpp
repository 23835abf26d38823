#pragma once
// F-1 … F-8 (spec §2.1): required sections and their order, P-item cards, card labels,
// reasoning-candidate presence, count equality and tier match.
#include <string>
#include <string_view>
#include <vector>

namespace loupe::core::validate_detail {

// `relaxed` skips F-4 … F-7 (compute relaxed-empty mode, or Loupe's honest-empty rule).
void check_structure(std::string_view text, std::string_view tier, bool relaxed,
                     std::vector<std::string>& errors);

}  // namespace loupe::core::validate_detail
