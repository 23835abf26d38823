#include "loupe/core/util/closest_name.hpp"

#include <algorithm>
#include <cctype>

namespace loupe::core {

namespace {

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  // Rows i-2, i-1 and i of the (|a|+1) x (|b|+1) table.
  std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) previous[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t cost = lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1;
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
      if (i > 1 && j > 1 && lower(a[i - 1]) == lower(b[j - 2]) &&
          lower(a[i - 2]) == lower(b[j - 1])) {
        current[j] = std::min(current[j], before[j - 2] + 1);
      }
    }
    std::swap(before, previous);
    std::swap(previous, current);
  }
  return previous[b.size()];
}

std::optional<std::string> closest_name(std::string_view word,
                                        const std::vector<std::string>& candidates) {
  const std::size_t allowed = word.size() <= 4 ? 1 : word.size() <= 8 ? 2 : 3;
  std::optional<std::string> best;
  std::size_t best_distance = allowed + 1;
  bool tie = false;
  for (const auto& candidate : candidates) {
    const std::size_t d = edit_distance(word, candidate);
    if (d < best_distance) {
      best = candidate;
      best_distance = d;
      tie = false;
    } else if (d == best_distance && best && *best != candidate) {
      tie = true;
    }
  }
  if (tie || best_distance > allowed) return std::nullopt;
  return best;
}

}  // namespace loupe::core
