// The one rule for plugin and category names (docs/plugin-abi.md, "Limits").
#pragma once

#include <cstddef>
#include <string_view>

namespace loupe::core {

inline constexpr std::size_t kMaxNameLength = 64;

// Plugin and category names: 1-64 characters of [A-Za-z0-9_-], starting with a letter or digit.
// They become file names under -o, so nothing else is allowed.
bool is_safe_name(std::string_view name);

}  // namespace loupe::core
