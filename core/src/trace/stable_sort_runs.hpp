// A stable sort for sequences made of a few ascending runs. A trace's host events come thread
// after thread, each thread's in time order: the 8x owlv2 trace's 792k host events are 33 runs.
// std::stable_sort does O(n log n) work whatever the order; merging the runs pairwise does
// O(n log runs). Private to the trace library.
#pragma once

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <memory>
#include <utility>
#include <vector>

namespace loupe::core::trace {

// Sorts `items` by `less` like std::stable_sort (equal items keep their order). Past
// `max_runs` runs the merging would cost about as much as the general sort, which is used then.
template <typename T, typename Less>
void stable_sort_runs(std::vector<T>& items, Less less, std::size_t max_runs = 256) {
  const std::size_t n = items.size();
  std::vector<std::size_t> bounds = {0};  // where each run starts, then n
  for (std::size_t i = 1; i < n; ++i) {
    if (less(items[i], items[i - 1])) {
      bounds.push_back(i);
      if (bounds.size() > max_runs) {
        std::stable_sort(items.begin(), items.end(), less);
        return;
      }
    }
  }
  bounds.push_back(n);
  if (bounds.size() <= 2) return;  // one run: already sorted
  // Merges go from `from` to `to` and back; the scratch is not initialized (for trivial types:
  // no pass that zeroes it).
  const auto scratch = std::make_unique_for_overwrite<T[]>(n);
  T* from = items.data();
  T* to = scratch.get();
  while (bounds.size() > 2) {
    std::vector<std::size_t> merged = {0};
    std::size_t k = 0;
    // std::merge takes the first range's item first among equal ones: adjacent runs merged
    // left to right keep the original order of equal items.
    for (; k + 2 < bounds.size(); k += 2) {
      std::merge(std::make_move_iterator(from + bounds[k]),
                 std::make_move_iterator(from + bounds[k + 1]),
                 std::make_move_iterator(from + bounds[k + 1]),
                 std::make_move_iterator(from + bounds[k + 2]), to + bounds[k], less);
      merged.push_back(bounds[k + 2]);
    }
    if (k + 1 < bounds.size()) {  // an odd run left: carried over as it is
      std::move(from + bounds[k], from + n, to + bounds[k]);
      if (merged.back() != n) merged.push_back(n);
    }
    std::swap(from, to);
    bounds = std::move(merged);
  }
  if (from != items.data()) std::move(from, from + n, items.data());
}

}  // namespace loupe::core::trace
