// stable_sort_runs (core/src/trace/stable_sort_runs.hpp) against std::stable_sort: the same order,
// equal keys included, for inputs of one run, a few runs, many runs (the fallback) and edge sizes.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <random>
#include <vector>

#include "../../core/src/trace/stable_sort_runs.hpp"

namespace {

struct Item {
  int key = 0;
  std::size_t order = 0;  // position in the input: tells whether equal keys kept their order
  bool operator==(const Item&) const = default;
};

bool by_key(const Item& a, const Item& b) { return a.key < b.key; }

// `runs` ascending runs of random lengths with keys in [0, key_range): many equal keys.
std::vector<Item> runs_of(std::mt19937& rng, std::size_t runs, std::size_t max_len, int key_range) {
  std::vector<Item> out;
  std::uniform_int_distribution<std::size_t> len(1, max_len);
  std::uniform_int_distribution<int> key(0, key_range - 1);
  for (std::size_t r = 0; r < runs; ++r) {
    std::vector<int> keys(len(rng));
    for (int& k : keys) k = key(rng);
    std::sort(keys.begin(), keys.end());
    for (const int k : keys) out.push_back({k, out.size()});
  }
  return out;
}

void check_like_stable_sort(std::vector<Item> items, std::size_t max_runs = 256) {
  std::vector<Item> expected = items;
  std::stable_sort(expected.begin(), expected.end(), by_key);
  loupe::core::trace::stable_sort_runs(items, by_key, max_runs);
  REQUIRE(items == expected);
}

}  // namespace

TEST_CASE("stable_sort_runs orders like std::stable_sort", "[trace][sort]") {
  std::mt19937 rng(7);
  std::size_t cases = 0;
  for (const std::size_t runs : {1, 2, 3, 5, 33, 64, 255}) {
    for (const int key_range : {3, 1000}) {
      for (int repeat = 0; repeat < 5; ++repeat) {
        check_like_stable_sort(runs_of(rng, runs, 200, key_range));
        ++cases;
      }
    }
  }
  CHECK(cases == 70);
}

TEST_CASE("stable_sort_runs falls back to the general sort past max_runs", "[trace][sort]") {
  std::mt19937 rng(11);
  std::vector<Item> items;
  std::uniform_int_distribution<int> key(0, 50);
  for (std::size_t i = 0; i < 5000; ++i) items.push_back({key(rng), i});  // ~2500 runs
  check_like_stable_sort(items);
  check_like_stable_sort(runs_of(rng, 10, 50, 20), /*max_runs=*/4);
}

TEST_CASE("stable_sort_runs on empty, single and already sorted inputs", "[trace][sort]") {
  check_like_stable_sort({});
  check_like_stable_sort({{4, 0}});
  check_like_stable_sort({{1, 0}, {1, 1}, {2, 2}, {2, 3}});
  check_like_stable_sort({{2, 0}, {1, 1}});                          // two runs of one
  check_like_stable_sort({{3, 0}, {2, 1}, {1, 2}, {1, 3}, {0, 4}});  // descending: a run per item
}
