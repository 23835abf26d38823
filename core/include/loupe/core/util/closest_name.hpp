// "Did you mean": the known name closest to a mistyped one (commands, options, platforms).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::core {

// Edits between `a` and `b`, ASCII case ignored: insertions, deletions, substitutions and swaps
// of two adjacent characters (optimal string alignment), so "platfrom" is 1 from "platform".
std::size_t edit_distance(std::string_view a, std::string_view b);

// The candidate closest to `word` when it is near enough to be a typo (at most 1 edit for
// words of up to 4 characters, 2 up to 8, 3 beyond) and no other candidate is as near;
// nullopt otherwise. A candidate equal to `word` is returned as is.
std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates);

}  // namespace loupe::core
