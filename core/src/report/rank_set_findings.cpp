#include "loupe/core/report/rank_set_findings.hpp"

#include <algorithm>
#include <map>
#include <string_view>

#include "loupe/core/report/run_finding.hpp"
#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/version.hpp"
#include "loupe/python_format.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

constexpr const char* kCrossRankCategory = "multirank";

Json rounded(std::optional<double> v, int digits) {
  return v ? Json(py::round_half_even(*v, digits)) : Json();
}

// The middle value (lower middle for an even count, so that it is one rank's own value).
template <class T, class Key>
const T& median_by(std::vector<T>& items, Key key) {
  std::sort(items.begin(), items.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
  return items[(items.size() - 1) / 2];
}

struct Sighting {
  int rank = 0;
  const RunFinding* finding = nullptr;
};

struct Entry {
  RunFinding finding;
  std::size_t order = 0;
  std::optional<double> mid_ms() const {
    return finding.saving_ms ? std::optional<double>(finding.saving_ms->mid) : std::nullopt;
  }
};

Entry cross_rank_entry(const CrossRankCard& c, const RankSetFindingsInput& in, std::size_t order) {
  RunFinding f;
  f.id = finding_id(kCrossRankCategory, c.identity);
  f.scope = FindingScope::CrossRank;
  f.category = kCrossRankCategory;
  f.title = c.card.title;
  if (c.card.impact && in.median_rank_gpu_ms) {
    const auto ms = [&](const Json& pct) -> std::optional<double> {
      const auto p = report_detail::number_of(&pct);
      if (!p) return std::nullopt;
      return py::round_half_even(*p / 100.0 * *in.median_rank_gpu_ms, 3);
    };
    const auto low = ms(c.card.impact->low);
    const auto mid = ms(c.card.impact->mid);
    const auto high = ms(c.card.impact->high);
    if (low && mid && high) f.saving_ms = SavingRange{*low, *mid, *high};
  }
  f.insight = c.card.insight;
  f.action = c.card.action;
  if (!in.cross_rank_findings_file.empty()) f.source_files.push_back(in.cross_rank_findings_file);
  f.source_files.push_back("collective_report/nccl_summary_long.csv");
  f.evidence = findings::Evidence::Measured;  // waits and times measured on every rank
  return {std::move(f), order};
}

Entry per_rank_entry(const std::string& id, std::vector<Sighting> seen, std::size_t order) {
  std::vector<int> ranks;
  ranks.reserve(seen.size());
  for (const Sighting& s : seen) ranks.push_back(s.rank);
  std::sort(ranks.begin(), ranks.end());
  std::vector<Sighting> quantified;
  for (const Sighting& s : seen) {
    if (s.finding->saving_ms) quantified.push_back(s);
  }
  const auto mid_of = [](const Sighting& s) { return s.finding->saving_ms->mid; };
  // The representative: the rank with the median mid saving (or the first rank, unquantified).
  const Sighting rep = quantified.empty() ? seen.front() : median_by(quantified, mid_of);
  const RunFinding& card = *rep.finding;
  RunFinding f;
  f.id = id;
  f.scope = FindingScope::PerRank;
  f.category = card.category;
  f.title = card.title;
  f.ranks = ranks;
  f.representative_rank = rep.rank;
  if (!quantified.empty()) {
    // Each level is the median over the ranks that quantify it.
    const auto median_of = [&](double SavingRange::*level) {
      std::vector<double> values;
      for (const Sighting& s : quantified) values.push_back((*s.finding->saving_ms).*level);
      return py::round_half_even(median_by(values, [](double v) { return v; }), 3);
    };
    f.saving_ms = SavingRange{median_of(&SavingRange::low), median_of(&SavingRange::mid),
                              median_of(&SavingRange::high)};
    const auto [lo, hi] = std::minmax_element(
        quantified.begin(), quantified.end(),
        [&](const Sighting& a, const Sighting& b) { return mid_of(a) < mid_of(b); });
    f.saving_ms_range =
        std::make_pair(py::round_half_even(mid_of(*lo), 3), py::round_half_even(mid_of(*hi), 3));
  }
  f.insight = card.insight;
  f.action = card.action;
  for (const auto& file : card.source_files) {
    f.source_files.push_back("rank_" + std::to_string(rep.rank) + "/" + file);
  }
  f.evidence = card.evidence.value_or(findings::Evidence::Heuristic);
  return {std::move(f), order};
}

}  // namespace

Json build_rank_set_findings(const RankSetFindingsInput& in) {
  Json doc = Json::object();
  doc["schema"] = kRankSetFindingsSchema;
  Json run = Json::object();
  run["loupe_version"] = kLoupeVersion;
  run["world_size"] = Json(static_cast<long long>(in.world_size));
  Json with = Json::array();
  Json without = Json::array();
  for (const RankFindings& r : in.ranks) {
    const Json* list = r.document.find("findings");
    (list != nullptr && list->is_array() ? with : without)
        .push_back(Json(static_cast<long long>(r.rank)));
  }
  run["ranks_with_findings"] = std::move(with);
  run["ranks_without_findings"] = std::move(without);
  run["median_rank_gpu_time_ms"] = rounded(in.median_rank_gpu_ms, 3);
  doc["run"] = std::move(run);

  std::vector<Entry> entries;
  for (const CrossRankCard& c : in.cross_rank) {
    entries.push_back(cross_rank_entry(c, in, entries.size()));
  }
  // Per-rank findings by id, in the order ids first appear (rank order, then each rank's rank).
  std::vector<RunFindings> typed;
  typed.reserve(in.ranks.size());
  for (const RankFindings& r : in.ranks) typed.push_back(read_run_findings(r.document));
  std::vector<std::string> ids;
  std::map<std::string, std::vector<Sighting>> by_id;
  for (std::size_t k = 0; k < in.ranks.size(); ++k) {
    for (const RunFinding& finding : typed[k].findings) {
      if (finding.id.empty()) continue;
      auto& seen = by_id[finding.id];
      if (seen.empty()) ids.push_back(finding.id);
      seen.push_back({in.ranks[k].rank, &finding});
    }
  }
  for (const std::string& id : ids) {
    entries.push_back(per_rank_entry(id, by_id[id], entries.size()));
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    const auto am = a.mid_ms();
    const auto bm = b.mid_ms();
    if (am.has_value() != bm.has_value()) return am.has_value();
    if (am && *am != *bm) return *am > *bm;
    return a.order < b.order;
  });
  Json findings = Json::array();
  std::int64_t priority = 1;
  for (Entry& e : entries) {
    e.finding.priority = priority++;
    findings.push_back(to_json(e.finding));
  }
  doc["findings"] = std::move(findings);
  return doc;
}

}  // namespace loupe::core
