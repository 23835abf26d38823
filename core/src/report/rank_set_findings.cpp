#include "loupe/core/report/rank_set_findings.hpp"

#include <algorithm>
#include <map>
#include <string_view>

#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/version.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

constexpr const char* kCrossRankCategory = "multirank";

std::optional<double> number(const Json* v) {
  if (v == nullptr || !v->is_number()) return std::nullopt;
  const double d = v->as_double();
  if (d != d) return std::nullopt;
  return d;
}
std::string text(const Json* v) { return v != nullptr && v->is_string() ? v->as_string() : ""; }
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
  const Json* finding = nullptr;
  std::optional<double> mid_ms;
};

struct Entry {
  Json json;
  std::optional<double> mid_ms;
  std::size_t order = 0;
};

Entry cross_rank_entry(const CrossRankCard& c, const RankSetFindingsInput& in, std::size_t order) {
  Json f = Json::object();
  f["id"] = finding_id(kCrossRankCategory, c.identity);
  f["scope"] = "cross_rank";
  f["category"] = kCrossRankCategory;
  f["priority"] = nullptr;
  f["title"] = c.card.title;
  f["ranks"] = nullptr;
  Json ms = Json::object();
  std::optional<double> mid;
  for (const char* key : {"low", "mid", "high"}) {
    std::optional<double> m;
    if (c.card.impact && in.median_rank_gpu_ms) {
      const Json& pct = std::string_view(key) == "low"   ? c.card.impact->low
                        : std::string_view(key) == "mid" ? c.card.impact->mid
                                                         : c.card.impact->high;
      if (const auto p = number(&pct)) m = *p / 100.0 * *in.median_rank_gpu_ms;
    }
    ms[key] = rounded(m, 3);
    if (std::string_view(key) == "mid") mid = m;
  }
  f["saving_ms"] = std::move(ms);
  f["saving_ms_range"] = nullptr;
  f["insight"] = c.card.insight;
  f["action"] = c.card.action;
  Json files = Json::array();
  if (!in.cross_rank_findings_file.empty()) files.push_back(in.cross_rank_findings_file);
  files.push_back("collective_report/nccl_summary_long.csv");
  Json sources = Json::object();
  sources["files"] = std::move(files);
  f["sources"] = std::move(sources);
  f["evidence"] = "measured";  // waits and times measured on every rank
  return {std::move(f), mid, order};
}

Entry per_rank_entry(const std::string& id, std::vector<Sighting> seen, std::size_t order) {
  std::vector<int> ranks;
  ranks.reserve(seen.size());
  for (const Sighting& s : seen) ranks.push_back(s.rank);
  std::sort(ranks.begin(), ranks.end());
  std::vector<Sighting> quantified;
  for (const Sighting& s : seen) {
    if (s.mid_ms) quantified.push_back(s);
  }
  // The representative: the rank with the median mid saving (or the first rank, unquantified).
  const Sighting rep = quantified.empty()
                           ? seen.front()
                           : median_by(quantified, [](const Sighting& s) { return *s.mid_ms; });
  const Json& card = *rep.finding;
  Json f = Json::object();
  f["id"] = id;
  f["scope"] = "per_rank";
  f["category"] = text(card.find("category"));
  f["priority"] = nullptr;
  f["title"] = text(card.find("title"));
  Json rank_list = Json::array();
  for (const int r : ranks) rank_list.push_back(Json(static_cast<long long>(r)));
  f["ranks"] = std::move(rank_list);
  f["representative_rank"] = Json(static_cast<long long>(rep.rank));
  Json ms = Json::object();
  std::optional<double> mid;
  for (const char* key : {"low", "mid", "high"}) {
    std::vector<double> values;
    for (const Sighting& s : seen) {
      const Json* saving = s.finding->find("saving_ms");
      if (const auto v = number(saving == nullptr ? nullptr : saving->find(key))) {
        values.push_back(*v);
      }
    }
    std::optional<double> m;
    if (!values.empty()) m = median_by(values, [](double v) { return v; });
    ms[key] = rounded(m, 3);
    if (std::string_view(key) == "mid") mid = m;
  }
  f["saving_ms"] = std::move(ms);
  if (quantified.empty()) {
    f["saving_ms_range"] = nullptr;
  } else {
    const auto [lo, hi] = std::minmax_element(
        quantified.begin(), quantified.end(),
        [](const Sighting& a, const Sighting& b) { return *a.mid_ms < *b.mid_ms; });
    Json range = Json::object();
    range["min"] = rounded(lo->mid_ms, 3);
    range["max"] = rounded(hi->mid_ms, 3);
    f["saving_ms_range"] = std::move(range);
  }
  f["insight"] = text(card.find("insight"));
  f["action"] = text(card.find("action"));
  Json files = Json::array();
  if (const Json* sources = card.find("sources")) {
    if (const Json* list = sources->find("files"); list != nullptr && list->is_array()) {
      for (const Json& file : list->as_array()) {
        files.push_back("rank_" + std::to_string(rep.rank) + "/" + text(&file));
      }
    }
  }
  Json sources = Json::object();
  sources["files"] = std::move(files);
  f["sources"] = std::move(sources);
  f["evidence"] = card.find("evidence") != nullptr && card.find("evidence")->is_string()
                      ? *card.find("evidence")
                      : Json("heuristic");
  return {std::move(f), mid, order};
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
  std::vector<std::string> ids;
  std::map<std::string, std::vector<Sighting>> by_id;
  for (const RankFindings& r : in.ranks) {
    const Json* list = r.document.find("findings");
    if (list == nullptr || !list->is_array()) continue;
    for (const Json& finding : list->as_array()) {
      const std::string id = text(finding.find("id"));
      if (id.empty()) continue;
      const Json* saving = finding.find("saving_ms");
      auto& seen = by_id[id];
      if (seen.empty()) ids.push_back(id);
      seen.push_back({r.rank, &finding, number(saving == nullptr ? nullptr : saving->find("mid"))});
    }
  }
  for (const std::string& id : ids) {
    entries.push_back(per_rank_entry(id, by_id[id], entries.size()));
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.mid_ms.has_value() != b.mid_ms.has_value()) return a.mid_ms.has_value();
    if (a.mid_ms && *a.mid_ms != *b.mid_ms) return *a.mid_ms > *b.mid_ms;
    return a.order < b.order;
  });
  Json findings = Json::array();
  long long priority = 1;
  for (Entry& e : entries) {
    e.json["priority"] = Json(priority++);
    findings.push_back(std::move(e.json));
  }
  doc["findings"] = std::move(findings);
  return doc;
}

}  // namespace loupe::core
