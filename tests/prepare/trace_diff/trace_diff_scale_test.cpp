// TraceDiff on large inputs: Wagner-Fischer with one backtrack bit per cell (checked against
// the full-table algorithm), the cap on the re-matching of repeated names, and trees deeper
// than the call stack would allow a recursive walk.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "alignment.hpp"
#include "inline_trace.hpp"
#include "loupe/core/prepare/trace_diff.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "prepare_test_support.hpp"

namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;
namespace td = loupe::core::prepare::trace_diff;

namespace {

using loupe::test::inline_trace::trace_document;

// The textbook algorithm: the whole (m+1) x (n+1) table, then TraceLens's backtrack (a name
// match first, then a deletion when dp[i][j] == dp[i-1][j] + 1, else an insertion).
td::EditOps reference_wagner_fischer(const std::vector<std::string>& a,
                                     const std::vector<std::string>& b) {
  const std::size_t m = a.size(), n = b.size();
  std::vector<std::vector<std::uint32_t>> dp(m + 1, std::vector<std::uint32_t>(n + 1));
  for (std::size_t i = 0; i <= m; ++i) dp[i][0] = static_cast<std::uint32_t>(i);
  for (std::size_t j = 0; j <= n; ++j) dp[0][j] = static_cast<std::uint32_t>(j);
  for (std::size_t i = 1; i <= m; ++i) {
    for (std::size_t j = 1; j <= n; ++j) {
      const std::uint32_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      dp[i][j] = std::min({dp[i - 1][j] + 1, dp[i][j - 1] + 1, dp[i - 1][j - 1] + cost});
    }
  }
  td::EditOps ops;
  std::size_t i = m, j = n;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && a[i - 1] == b[j - 1]) {
      ops.push_back({td::EditOp::Kind::kMatch, i - 1, j - 1});
      --i;
      --j;
    } else if (i > 0 && (j == 0 || dp[i][j] == dp[i - 1][j] + 1)) {
      ops.push_back({td::EditOp::Kind::kDelete, i - 1, 0});
      --i;
    } else {
      ops.push_back({td::EditOp::Kind::kInsert, 0, j - 1});
      --j;
    }
  }
  std::reverse(ops.begin(), ops.end());
  return ops;
}

bool same_ops(const td::EditOps& x, const td::EditOps& y) {
  return x.size() == y.size() && std::equal(x.begin(), x.end(), y.begin(), [](auto& p, auto& q) {
           return p.kind == q.kind && p.i == q.i && p.j == q.j;
         });
}

std::vector<std::string> random_names(std::mt19937& rng, std::size_t count, int alphabet) {
  std::vector<std::string> names;
  for (std::size_t k = 0; k < count; ++k) {
    names.push_back("aten::op" + std::to_string(rng() % static_cast<unsigned>(alphabet)));
  }
  return names;
}

std::string cpu_op(const std::string& name, long long ts, long long dur) {
  return loupe::test::inline_trace::cpu_op(name, static_cast<double>(ts), static_cast<double>(dur));
}

// cudaLaunchKernel at `ts` linked by flow `id` to `kernel` at [kernel_ts, kernel_ts + 3).
std::string launch(const std::string& kernel, long long id, long long ts, long long kernel_ts) {
  return loupe::test::inline_trace::launch(kernel, static_cast<int>(id), static_cast<double>(ts),
                                           static_cast<double>(kernel_ts), 3);
}

// One "step" op holding `count` ops named `name`, each launching one kernel.
std::string flat_trace(int count, const std::string& name) {
  const long long span = 10LL * count + 10;
  std::string events = cpu_op("step", 0, span);
  events.reserve(static_cast<std::size_t>(count) * 700);
  for (int k = 0; k < count; ++k) {
    events += cpu_op(name, 10LL * k + 1, 5);
    events += launch("gemm", k + 1, 10LL * k + 2, span + 10LL * k);
  }
  return trace_document(std::move(events));
}

// `depth` ops nested in one another, the innermost launching `kernel`.
std::string deep_trace(int depth, const std::string& kernel) {
  const long long span = 2LL * depth + 10;
  std::string events;
  events.reserve(static_cast<std::size_t>(depth) * 110);
  for (int k = 0; k < depth; ++k) events += cpu_op("layer", k, span - 2LL * k);
  events += launch(kernel, 1, depth + 1, span + 10);
  return trace_document(std::move(events));
}

using Side = loupe::test::TraceWithTree;
using loupe::test::load_with_report_tree_from_text;

}  // namespace

TEST_CASE("Wagner-Fischer with backtrack bits equals the full-table algorithm",
          "[prepare][trace_diff]") {
  std::mt19937 rng(20240611);
  const std::vector<std::pair<std::size_t, std::size_t>> sizes = {
      {0, 0},   {0, 5},   {7, 0},   {1, 1},    {1, 9},     {12, 3},
      {40, 40}, {63, 65}, {64, 64}, {100, 37}, {129, 200}, {250, 251}};
  for (const auto& [m, n] : sizes) {
    for (const int alphabet : {1, 2, 5, 30}) {
      const auto a = random_names(rng, m, alphabet);
      const auto b = random_names(rng, n, alphabet);
      const td::EditOps expected = reference_wagner_fischer(a, b);
      INFO("m=" << m << " n=" << n << " alphabet=" << alphabet);
      CHECK(same_ops(td::wagner_fischer(a, b), expected));
      // Tiny bit budgets: the backtrack recomputes its bits block by block (down to one row).
      for (const std::size_t budget : {std::size_t{1}, std::size_t{64}, std::size_t{1000}}) {
        CHECK(same_ops(td::wagner_fischer(a, b, budget), expected));
      }
    }
  }
  // A common suffix (matched before the table is built) and a shared middle.
  auto a = random_names(rng, 80, 4), b = random_names(rng, 90, 4);
  const auto tail = random_names(rng, 30, 4);
  a.insert(a.end(), tail.begin(), tail.end());
  b.insert(b.end(), tail.begin(), tail.end());
  CHECK(same_ops(td::wagner_fischer(a, b, 200), reference_wagner_fischer(a, b)));
}

TEST_CASE("TraceDiff skips the re-matching of a name repeated beyond the pair cap",
          "[prepare][trace_diff]") {
  // 2000 ops against 2001 of the same name under one step: the lists are aligned by
  // Wagner-Fischer (lengths differ) and the name has 2000 x 2001 > 1,000,000 candidate pairs.
  const Side a = load_with_report_tree_from_text(flat_trace(2000, "aten::mm"));
  const Side b = load_with_report_tree_from_text(flat_trace(2001, "aten::mm"));
  const auto comparison =
      lp::TraceComparison::compare({a.loaded.model, a.tree}, {b.loaded.model, b.tree});
  CHECK(comparison.skipped_disambiguations() == 1);
  // Wagner-Fischer's matches kept: the extra trace-2 op is the first one (inserted), the others
  // pair up in order, and every kernel pair is its own LCA; the extra op's kernel is under step.
  const auto& nodes = comparison.merged_nodes();
  REQUIRE(comparison.merged_roots().size() == 1);
  const auto& root = nodes[comparison.merged_roots()[0]];
  REQUIRE(root.children.size() == 2001);
  CHECK(nodes[root.children[0]].uid1 == lt::kNoUid);
  CHECK(nodes[root.children[1]].combined());
  CHECK(comparison.rows().size() == 2 * 2000 + 1);
  CHECK(comparison.diff_stats_csv().has_value());
}

TEST_CASE("The pair cap keeps TraceLens's re-matching below it", "[prepare][trace_diff]") {
  const Side a = load_with_report_tree_from_text(flat_trace(100, "aten::mm"));
  const Side b = load_with_report_tree_from_text(flat_trace(101, "aten::mm"));
  const auto exact =
      lp::TraceComparison::compare({a.loaded.model, a.tree}, {b.loaded.model, b.tree});
  CHECK(exact.skipped_disambiguations() == 0);  // 10,100 pairs: under the default cap
  lp::TraceDiffOptions options;
  options.max_disambiguation_pairs = 10'000;
  const auto capped =
      lp::TraceComparison::compare({a.loaded.model, a.tree}, {b.loaded.model, b.tree}, options);
  CHECK(capped.skipped_disambiguations() == 1);
  // The re-matching of identical subtrees prefers Wagner-Fischer's own pairs, so the two agree
  // here; the cap changes only the work done.
  CHECK(capped.diff_stats_csv() == exact.diff_stats_csv());
}

// 50,000 nested ops: a recursive merge or diff-stats walk needs several MB of stack for this
// (more in Debug builds); the walks are iterative, and the test also passes under
// `ulimit -s 512`.
TEST_CASE("TraceDiff walks trees deeper than a recursive walk could", "[prepare][trace_diff]") {
  constexpr int kDepth = 50'000;
  const Side a = load_with_report_tree_from_text(deep_trace(kDepth, "gemm_a"));
  const Side b = load_with_report_tree_from_text(deep_trace(kDepth, "gemm_b"));
  const auto comparison =
      lp::TraceComparison::compare({a.loaded.model, a.tree}, {b.loaded.model, b.tree});
  // ops 0..depth-1, the launch, the kernel: all combined, in pre-order.
  REQUIRE(comparison.merged_nodes().size() == kDepth + 2);
  REQUIRE(comparison.rows().size() == 2);
  CHECK(comparison.rows()[0].lca_name == std::optional<std::string>("gemm_a | gemm_b"));
  CHECK(comparison.rows()[0].lca_id == std::optional<std::size_t>(kDepth + 1));
  CHECK(comparison.rows()[1].source == lp::DiffSource::kTrace2);
}
