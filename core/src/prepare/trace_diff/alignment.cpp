#include "alignment.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <set>
#include <string_view>
#include <unordered_map>

namespace loupe::core::prepare::trace_diff {
namespace {

using Name = std::optional<std::string>;

// Names turned into small ids: equal names get equal ids. Views must outlive the interner.
class NameIds {
 public:
  std::uint32_t id(std::string_view name) {
    return ids_.try_emplace(name, static_cast<std::uint32_t>(ids_.size() + 1)).first->second;
  }
  // nullopt (a nameless event) has id 0, which no name gets.
  std::uint32_t id(const Name& name) { return name ? id(std::string_view(*name)) : 0; }

 private:
  std::unordered_map<std::string_view, std::uint32_t> ids_;
};

// One depth of GPU-path descendants: the ids of their names, sorted. Two levels are equal as
// id vectors exactly when they are equal as sorted name lists (same multiset of names).
using Level = std::vector<std::uint32_t>;

// Names of GPU-path descendants per BFS level (1..max_depth); stops after the first level
// whose frontier is empty.
std::vector<Level> gpu_path_levels(trace::Uid uid, const DiffSide& side, int max_depth,
                                   NameIds& ids) {
  std::vector<Level> levels;
  std::vector<trace::Uid> frontier{uid};
  for (int depth = 0; depth < max_depth; ++depth) {
    std::vector<trace::Uid> next;
    Level names;
    for (const trace::Uid u : frontier) {
      for (const trace::Uid child : side.children(u)) {
        if (!side.gpu_path(child)) continue;
        next.push_back(child);
        names.push_back(ids.id(side.node_name(child)));
      }
    }
    std::sort(names.begin(), names.end());
    levels.push_back(std::move(names));
    frontier = std::move(next);
    if (frontier.empty()) break;
  }
  return levels;
}

// (levels equal before the first divergence, multiset overlap at that divergence).
std::pair<std::size_t, std::size_t> match_depth(const std::vector<Level>& a,
                                                const std::vector<Level>& b) {
  const std::size_t depth = std::max(a.size(), b.size());
  static const Level kEmpty;
  for (std::size_t d = 0; d < depth; ++d) {
    const Level& la = d < a.size() ? a[d] : kEmpty;
    const Level& lb = d < b.size() ? b[d] : kEmpty;
    if (la == lb) continue;
    // Both sorted: the multiset intersection by a merge.
    std::size_t overlap = 0;
    for (std::size_t x = 0, y = 0; x < la.size() && y < lb.size();) {
      if (la[x] < lb[y]) {
        ++x;
      } else if (lb[y] < la[x]) {
        ++y;
      } else {
        ++overlap;
        ++x;
        ++y;
      }
    }
    return {d, overlap};
  }
  return {depth, 0};
}

// TraceLens's _disambiguate_same_name_candidates. A name with more candidate pairs than the
// context's cap is left as Wagner-Fischer matched it (counted in the context).
EditOps disambiguate(const EditOps& ops, const std::vector<trace::Uid>& children1,
                     const std::vector<trace::Uid>& children2, const DiffSide& side1,
                     const DiffSide& side2, AlignContext& context) {
  constexpr int kMaxDepth = 4;
  constexpr auto kUnmatched = static_cast<std::size_t>(-1);
  std::set<std::pair<std::size_t, std::size_t>> original_matches;
  std::vector<std::size_t> original_match_of(children1.size(), kUnmatched);  // i -> j
  std::map<Name, std::vector<std::size_t>> by_name1, by_name2;
  std::set<Name> matched_names;
  for (const EditOp& op : ops) {
    if (op.kind == EditOp::Kind::kMatch) {
      original_matches.emplace(op.i, op.j);
      original_match_of[op.i] = op.j;
      const Name& n1 = side1.node_name(children1[op.i]);
      by_name1[n1].push_back(op.i);
      matched_names.insert(n1);
      const Name& n2 = side2.node_name(children2[op.j]);
      by_name2[n2].push_back(op.j);
      matched_names.insert(n2);
    } else if (op.kind == EditOp::Kind::kDelete) {
      by_name1[side1.node_name(children1[op.i])].push_back(op.i);
    } else {
      by_name2[side2.node_name(children2[op.j])].push_back(op.j);
    }
  }
  std::vector<Name> ambiguous;
  for (const auto& [name, indices1] : by_name1) {
    const auto it2 = by_name2.find(name);
    if (it2 == by_name2.end() || matched_names.count(name) == 0) continue;
    if (indices1.size() > 1 || it2->second.size() > 1) ambiguous.push_back(name);
  }
  if (ambiguous.empty()) return ops;

  NameIds ids;
  std::set<std::size_t> handled1, handled2, new_deletes, new_inserts;
  // TraceLens collects these in a Python set and appends them in its iteration order; the
  // (i, j) order used here is the sorted one (docs/trace-diff.md, open points).
  std::set<std::pair<std::size_t, std::size_t>> new_matches;
  for (const Name& name : ambiguous) {
    std::vector<std::size_t> indices1 = by_name1[name];
    std::vector<std::size_t> indices2 = by_name2[name];
    if (indices1.size() * indices2.size() > context.max_disambiguation_pairs) {
      // Too many pairs to score: the name keeps its Wagner-Fischer matches (a Loupe
      // deviation, docs/trace-diff.md section 7).
      ++context.skipped_disambiguations;
      continue;
    }
    std::sort(indices1.begin(), indices1.end());
    std::sort(indices2.begin(), indices2.end());
    handled1.insert(indices1.begin(), indices1.end());
    handled2.insert(indices2.begin(), indices2.end());
    const std::size_t to_match = std::min(indices1.size(), indices2.size());
    std::vector<std::vector<Level>> levels1, levels2;  // by position in indices1 / indices2
    levels1.reserve(indices1.size());
    levels2.reserve(indices2.size());
    for (const std::size_t i : indices1) {
      levels1.push_back(gpu_path_levels(children1[i], side1, kMaxDepth, ids));
    }
    for (const std::size_t j : indices2) {
      levels2.push_back(gpu_path_levels(children2[j], side2, kMaxDepth, ids));
    }
    // Positions (x, y) in the sorted index lists order like the indices (i, j) themselves.
    struct Scored {
      std::uint32_t depth, overlap;
      std::uint32_t x, y;
      bool was_matched;
    };
    std::vector<Scored> scored;
    scored.reserve(indices1.size() * indices2.size());
    for (std::size_t x = 0; x < indices1.size(); ++x) {
      for (std::size_t y = 0; y < indices2.size(); ++y) {
        const auto [depth, overlap] = match_depth(levels1[x], levels2[y]);
        scored.push_back({static_cast<std::uint32_t>(depth), static_cast<std::uint32_t>(overlap),
                          static_cast<std::uint32_t>(x), static_cast<std::uint32_t>(y),
                          original_match_of[indices1[x]] == indices2[y]});
      }
    }
    // Deepest agreement first, then the largest overlap, then the pair Wagner-Fischer
    // matched, then by (i, j).
    std::sort(scored.begin(), scored.end(), [](const Scored& a, const Scored& b) {
      if (a.depth != b.depth) return a.depth > b.depth;
      if (a.overlap != b.overlap) return a.overlap > b.overlap;
      if (a.was_matched != b.was_matched) return a.was_matched;
      if (a.x != b.x) return a.x < b.x;
      return a.y < b.y;
    });
    std::vector<bool> assigned1(indices1.size()), assigned2(indices2.size());
    std::size_t assigned = 0;
    for (const Scored& s : scored) {
      if (assigned1[s.x] || assigned2[s.y]) continue;
      new_matches.emplace(indices1[s.x], indices2[s.y]);
      assigned1[s.x] = true;
      assigned2[s.y] = true;
      if (++assigned == to_match) break;
    }
    for (std::size_t x = 0; x < indices1.size(); ++x) {
      if (!assigned1[x]) new_deletes.insert(indices1[x]);
    }
    for (std::size_t y = 0; y < indices2.size(); ++y) {
      if (!assigned2[y]) new_inserts.insert(indices2[y]);
    }
  }
  if (std::includes(original_matches.begin(), original_matches.end(), new_matches.begin(),
                    new_matches.end())) {
    return ops;
  }
  EditOps out;
  for (const EditOp& op : ops) {
    const bool handled = (op.kind == EditOp::Kind::kMatch &&
                          (handled1.count(op.i) != 0 || handled2.count(op.j) != 0)) ||
                         (op.kind == EditOp::Kind::kDelete && handled1.count(op.i) != 0) ||
                         (op.kind == EditOp::Kind::kInsert && handled2.count(op.j) != 0);
    if (!handled) out.push_back(op);
  }
  for (const auto& [i, j] : new_matches) out.push_back({EditOp::Kind::kMatch, i, j});
  for (const std::size_t i : new_deletes) out.push_back({EditOp::Kind::kDelete, i, 0});
  for (const std::size_t j : new_inserts) out.push_back({EditOp::Kind::kInsert, 0, j});
  return out;
}

// One row of the Wagner-Fischer table: `cur` (row i) from `up` (row i - 1), and when `bits`
// is given, bit j - 1 set when dp[i][j] == dp[i - 1][j] + 1 (the backtrack's deletion test).
// Only the first up.size() - 1 names of `ids2` are used.
void wf_row(std::uint32_t name1, const std::vector<std::uint32_t>& ids2,
            const std::vector<std::uint32_t>& up, std::vector<std::uint32_t>& cur,
            std::uint64_t* bits) {
  cur[0] = up[0] + 1;
  const std::size_t n = up.size() - 1;
  for (std::size_t j = 1; j <= n; ++j) {
    const std::uint32_t cost = name1 == ids2[j - 1] ? 0 : 1;
    const std::uint32_t value = std::min({up[j] + 1, cur[j - 1] + 1, up[j - 1] + cost});
    cur[j] = value;
    if (bits != nullptr && value == up[j] + 1)
      bits[(j - 1) >> 6] |= std::uint64_t{1} << ((j - 1) & 63);
  }
}

}  // namespace

EditOps wagner_fischer_ids(const std::vector<std::uint32_t>& ids1,
                           const std::vector<std::uint32_t>& ids2, std::size_t bit_budget) {
  // A common suffix is matched by the backtrack before anything else, and the table over the
  // lists without it is the top-left part of the full one: align the rest, append the suffix.
  std::size_t suffix = 0;
  while (suffix < ids1.size() && suffix < ids2.size() &&
         ids1[ids1.size() - 1 - suffix] == ids2[ids2.size() - 1 - suffix]) {
    ++suffix;
  }
  const std::size_t m = ids1.size() - suffix, n = ids2.size() - suffix;

  // Rows 1..m in blocks of `block` rows; only one block's bits are held at a time. The value
  // row before each block is kept from the forward pass to recompute that block's bits.
  const std::size_t words = (n + 63) / 64;
  const std::size_t block =
      std::max<std::size_t>(1, std::min(m, bit_budget / std::max<std::size_t>(1, words * 64)));
  const std::size_t block_count = m == 0 ? 0 : (m + block - 1) / block;
  std::vector<std::vector<std::uint32_t>> checkpoints(block_count);
  std::vector<std::uint64_t> bits(block * words);
  std::vector<std::uint32_t> up(n + 1), cur(n + 1);
  for (std::size_t j = 0; j <= n; ++j) up[j] = static_cast<std::uint32_t>(j);
  const std::size_t last_block = block_count == 0 ? 0 : block_count - 1;
  for (std::size_t i = 1; i <= m; ++i) {
    const std::size_t b = (i - 1) / block;
    if ((i - 1) % block == 0) checkpoints[b] = up;  // row i - 1 = b * block
    std::uint64_t* row_bits = b == last_block ? bits.data() + ((i - 1) % block) * words : nullptr;
    wf_row(ids1[i - 1], ids2, up, cur, row_bits);
    std::swap(up, cur);
  }
  std::size_t loaded = last_block;
  const auto load = [&](std::size_t b) {
    std::fill(bits.begin(), bits.end(), 0);
    up = checkpoints[b];
    const std::size_t first = b * block + 1, last = std::min(m, (b + 1) * block);
    for (std::size_t i = first; i <= last; ++i) {
      wf_row(ids1[i - 1], ids2, up, cur, bits.data() + (i - first) * words);
      std::swap(up, cur);
    }
    loaded = b;
  };
  const auto deletion = [&](std::size_t i, std::size_t j) {
    const std::size_t b = (i - 1) / block;
    if (b != loaded) load(b);
    const std::uint64_t word = bits[((i - 1) % block) * words + ((j - 1) >> 6)];
    return ((word >> ((j - 1) & 63)) & 1) != 0;
  };

  EditOps ops;
  ops.reserve(m + n + suffix);
  std::size_t i = m, j = n;
  while (i > 0 || j > 0) {
    if (i > 0 && j > 0 && ids1[i - 1] == ids2[j - 1]) {
      ops.push_back({EditOp::Kind::kMatch, i - 1, j - 1});
      --i;
      --j;
    } else if (i > 0 && (j == 0 || deletion(i, j))) {
      ops.push_back({EditOp::Kind::kDelete, i - 1, 0});
      --i;
    } else {
      ops.push_back({EditOp::Kind::kInsert, 0, j - 1});
      --j;
    }
  }
  std::reverse(ops.begin(), ops.end());
  for (std::size_t k = 0; k < suffix; ++k) ops.push_back({EditOp::Kind::kMatch, m + k, n + k});
  return ops;
}

EditOps wagner_fischer(const std::vector<std::string>& names1,
                       const std::vector<std::string>& names2, std::size_t bit_budget) {
  NameIds ids;
  std::vector<std::uint32_t> ids1, ids2;
  ids1.reserve(names1.size());
  ids2.reserve(names2.size());
  for (const std::string& name : names1) ids1.push_back(ids.id(std::string_view(name)));
  for (const std::string& name : names2) ids2.push_back(ids.id(std::string_view(name)));
  return wagner_fischer_ids(ids1, ids2, bit_budget);
}

EditOps align_children(const std::vector<trace::Uid>& items1, const std::vector<trace::Uid>& items2,
                       const DiffSide& side1, const DiffSide& side2, bool strip_details,
                       AlignContext& context) {
  NameIds ids;
  std::deque<std::string> computed;  // names that are not cached by the sides (stable storage)
  const auto name_id = [&](const DiffSide& side, trace::Uid uid) {
    if (!strip_details && !side.model().name(uid).empty()) {
      return ids.id(std::string_view(*side.node_name(uid)));
    }
    return ids.id(std::string_view(computed.emplace_back(side.wf_name(uid, strip_details))));
  };
  std::vector<std::uint32_t> ids1, ids2;
  ids1.reserve(items1.size());
  ids2.reserve(items2.size());
  for (const trace::Uid uid : items1) ids1.push_back(name_id(side1, uid));
  for (const trace::Uid uid : items2) ids2.push_back(name_id(side2, uid));
  return disambiguate(wagner_fischer_ids(ids1, ids2), items1, items2, side1, side2, context);
}

EditOps positional_matches(std::size_t count) {
  EditOps ops;
  ops.reserve(count);
  for (std::size_t k = 0; k < count; ++k) ops.push_back({EditOp::Kind::kMatch, k, k});
  return ops;
}

}  // namespace loupe::core::prepare::trace_diff
