// The length covered by a set of [start, end) intervals (overlaps counted once): the busy time of
// GPU ops, the host time of a step. Private to the trace library.
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace loupe::core::trace {

using Interval = std::pair<std::int64_t, std::int64_t>;

// Sorts `spans` in place.
inline std::int64_t union_length(std::vector<Interval>& spans) {
  std::sort(spans.begin(), spans.end());
  std::int64_t total = 0;
  std::int64_t start = 0;
  std::int64_t end = 0;
  bool open = false;
  for (const auto& [a, b] : spans) {
    if (open && a <= end) {
      end = std::max(end, b);
      continue;
    }
    if (open) total += end - start;
    start = a;
    end = b;
    open = true;
  }
  if (open) total += end - start;
  return total;
}

}  // namespace loupe::core::trace
