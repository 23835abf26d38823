#include "loupe/core/report/priority_data.hpp"

#include <map>
#include <optional>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <set>
#include <stdexcept>

#include "loupe/py_number.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

// The aggregation met a value of the wrong type (where Python would raise).
struct ShapeError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A number as Python's arithmetic sees it (int stays int until a float joins); raises where
// Python would.
PyNumber number_of(const Json& v) {
  if (const auto n = PyNumber::from_json(v)) return *n;
  throw ShapeError("not a number");
}

// dict.get(key, default) on an object member.
const Json* member(const Json& object, std::string_view key) {
  if (!object.is_object()) throw ShapeError("not an object");
  return object.find(key);
}
PyNumber number_or(const Json& object, std::string_view key, std::int64_t fallback) {
  const Json* v = member(object, key);
  return v == nullptr ? PyNumber::integer(fallback) : number_of(*v);
}
const Json& list_or_empty(const Json& object, std::string_view key) {
  static const Json kEmpty = Json::array();
  const Json* v = member(object, key);
  if (v == nullptr) return kEmpty;
  if (!v->is_array()) throw ShapeError("not a list");
  return *v;
}
bool string_equals(const Json* v, std::string_view text) {
  return v != nullptr && v->is_string() && v->as_string() == text;
}

// obj[key] = value: replaces in place or appends, like a dict.
void set_member(Json& object, const std::string& key, Json value) {
  object[key] = std::move(value);
}
// obj.pop(key, fallback).
Json pop_member(Json& object, std::string_view key, Json fallback) {
  auto& members = object.as_object();
  for (auto it = members.begin(); it != members.end(); ++it) {
    if (it->first == key) {
      Json value = std::move(it->second);
      members.erase(it);
      return value;
    }
  }
  return fallback;
}

struct Quantified {
  std::string category;
  Json category_value;  // the metrics' "category" (may be null)
  double impact = 0.0, low = 0.0, high = 0.0;
  PyNumber operations;
};

std::string key_of(const Json& category) {
  return category.is_string() ? "s:" + category.as_string() : "n:" + dump_python_json(category, -1);
}

Json aggregate(const Json& manifest, std::vector<MetricsFile> files, int max_recommendations) {
  const Json* utilization = member(manifest, "gpu_utilization");
  const Json empty_object = Json::object();
  if (utilization == nullptr) utilization = &empty_object;
  const Json* baseline_json = member(*utilization, "total_time_ms");
  const Json baseline = baseline_json == nullptr ? Json(0) : *baseline_json;
  const PyNumber baseline_n = number_of(baseline);
  const PyNumber computation_pct = number_or(*utilization, "computation_time_percent", 0);
  const double computation_ms = baseline_n.value() * computation_pct.value() / 100.0;
  const double threshold_ms = computation_ms * 0.05;

  std::sort(files.begin(), files.end(),
            [](const MetricsFile& a, const MetricsFile& b) { return a.file_name < b.file_name; });
  Json all_estimates = Json::array();
  std::vector<Json> findings;
  for (auto& file : files) {
    const Json& metrics = file.metrics;
    const Json* status = member(metrics, "status");
    if (string_equals(status, "ERROR") || string_equals(status, "NO_DATA")) continue;
    for (const auto& estimate : list_or_empty(metrics, "impact_estimates").as_array()) {
      all_estimates.push_back(estimate);
    }
    const Json* category = member(metrics, "category");
    const Json category_value = category == nullptr ? Json() : *category;
    for (Json finding : list_or_empty(metrics, "category_findings").as_array()) {
      if (!finding.is_object()) throw ShapeError("a finding is not an object");
      set_member(finding, "category", category_value);
      Json rank = pop_member(finding, "rank", Json(0));
      set_member(finding, "category_rank", std::move(rank));
      findings.push_back(std::move(finding));
    }
  }

  // Quantified rollup per category, in first-seen order; heuristic findings stay out of it.
  std::vector<Quantified> quantified;
  std::set<std::string> heuristic_keys;
  for (const auto& f : findings) {
    const Json& category = *f.find("category");
    if (string_equals(member(f, "estimate_method"), "heuristic")) {
      heuristic_keys.insert(key_of(category));
      continue;
    }
    auto it = std::find_if(quantified.begin(), quantified.end(), [&](const Quantified& q) {
      return key_of(q.category_value) == key_of(category);
    });
    if (it == quantified.end()) {
      quantified.push_back({key_of(category), category, 0.0, 0.0, 0.0, PyNumber{}});
      it = quantified.end() - 1;
    }
    it->impact += number_or(f, "impact_score", 0).value();
    it->low += number_or(f, "impact_score_low", 0).value();
    it->high += number_or(f, "impact_score_high", 0).value();
    it->operations += number_or(f, "operation_count", 0);
  }

  struct PlotRec {
    Json category;
    double impact, low, high;
    PyNumber operations;
  };
  std::vector<PlotRec> recs;
  recs.reserve(quantified.size());
  for (const auto& q : quantified) {
    recs.push_back({q.category_value, py::round_half_even(q.impact, 2),
                    py::round_half_even(q.low, 2), py::round_half_even(q.high, 2), q.operations});
  }
  std::stable_sort(recs.begin(), recs.end(),
                   [](const PlotRec& a, const PlotRec& b) { return a.impact > b.impact; });
  if (recs.size() > static_cast<size_t>(std::max(0, max_recommendations))) {
    recs.resize(static_cast<size_t>(std::max(0, max_recommendations)));
  }

  // Display names from the manifest (every entry must have a name, as in TraceLens).
  const Json& categories = list_or_empty(manifest, "categories");
  auto display_name = [&](const Json& category) -> Json {
    Json found = category;
    for (const auto& entry : categories.as_array()) {
      const Json* name = member(entry, "name");
      if (name == nullptr) throw ShapeError("a manifest category has no name");
      if (key_of(*name) == key_of(category)) {
        const Json* display = member(entry, "display_name");
        found = display == nullptr ? *name : *display;
      }
    }
    return found;
  };
  for (const auto& entry : categories.as_array()) {
    if (member(entry, "name") == nullptr) throw ShapeError("a manifest category has no name");
  }

  Json plot = Json::array();
  Json priorities = Json::array();
  std::int64_t rank = 0;
  for (const auto& rec : recs) {
    Json r = Json::object();
    r["category"] = rec.category;
    r["impact_score"] = rec.impact;
    r["impact_score_low"] = rec.low;
    r["impact_score_high"] = rec.high;
    r["operation_count"] = rec.operations.to_json();
    r["type"] = "kernel_tuning";
    plot.push_back(r);
    Json p = Json::object();
    p["rank"] = static_cast<long long>(++rank);
    p["category"] = rec.category;
    p["display_name"] = display_name(rec.category);
    p["impact_score"] = rec.impact;
    p["impact_score_low"] = rec.low;
    p["impact_score_high"] = rec.high;
    p["source"] = "findings_rollup";
    priorities.push_back(std::move(p));
  }

  // Compute categories with no quantified or heuristic finding that hold >= 5 % of the
  // computation time, by kernel time.
  struct Unmodeled {
    Json category, display;
    PyNumber time;
  };
  std::vector<Unmodeled> unmodeled;
  for (const auto& entry : categories.as_array()) {
    const Json* name_ptr = member(entry, "name");
    const Json name = *name_ptr;
    if (!string_equals(member(entry, "tier"), "compute_kernel")) continue;
    const std::string key = key_of(name);
    const bool known = heuristic_keys.count(key) > 0 ||
                       std::any_of(quantified.begin(), quantified.end(), [&](const Quantified& q) {
                         return key_of(q.category_value) == key;
                       });
    if (known) continue;
    const PyNumber time = number_or(entry, "gpu_kernel_time_ms", 0);
    if (time.value() >= threshold_ms) {
      const Json* display = member(entry, "display_name");
      unmodeled.push_back({name, display == nullptr ? name : *display, time});
    }
  }
  std::stable_sort(unmodeled.begin(), unmodeled.end(), [](const Unmodeled& a, const Unmodeled& b) {
    return a.time.value() > b.time.value();
  });
  for (const auto& u : unmodeled) {
    Json p = Json::object();
    p["rank"] = static_cast<long long>(++rank);
    p["category"] = u.category;
    p["display_name"] = u.display;
    p["impact_score"] = nullptr;
    p["gpu_kernel_time_ms"] = py_round(u.time, 3).to_json();
    p["source"] = "manifest_fallback";
    priorities.push_back(std::move(p));
  }

  std::vector<double> keys;
  keys.reserve(findings.size());
  for (const auto& f : findings) keys.push_back(number_or(f, "impact_score", 0).value());
  std::vector<size_t> order(findings.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return keys[a] > keys[b]; });
  Json sorted = Json::array();
  std::int64_t global_rank = 0;
  for (const size_t i : order) {
    Json f = std::move(findings[i]);
    f["global_rank"] = static_cast<long long>(++global_rank);
    sorted.push_back(std::move(f));
  }

  Json out = Json::object();
  out["baseline_ms"] = baseline;
  out["priorities"] = std::move(priorities);
  out["recommendations"] = std::move(plot);
  out["findings"] = std::move(sorted);
  out["all_estimates"] = std::move(all_estimates);
  return out;
}

}  // namespace

Json build_priority_data(const Json& manifest, std::vector<MetricsFile> metrics_files,
                         int max_recommendations) {
  try {
    return aggregate(manifest, std::move(metrics_files), max_recommendations);
  } catch (const ShapeError&) {
  } catch (const std::bad_variant_access&) {
  }
  // TraceLens's document when its aggregation fails: nothing ranked, no partial answer.
  Json out = Json::object();
  out["baseline_ms"] = 0;
  out["priorities"] = Json::array();
  out["recommendations"] = Json::array();
  out["findings"] = Json::array();
  out["all_estimates"] = Json::array();
  return out;
}

std::string priority_data_text(const Json& priority_data) {
  return dump_python_json(priority_data, 2, true);
}

void number_priority_data(Json& priority_data, const RunFindings& run_findings) {
  struct Number {
    Json priority;
    Json id;
    Json part_of;
  };
  using Key = std::pair<std::string, long long>;
  std::map<Key, Number> numbers;
  // A contributing analyzer's card (docs/plugin-abi.md) shares its category and rank with the
  // primary's card; priority_data lists the primary's, so only those are keyed.
  for (const RunFinding& f : run_findings.findings) {
    if (f.id.empty()) continue;
    const Json priority = f.priority > 0 ? Json(static_cast<long long>(f.priority)) : Json();
    if (!f.contributed && f.category_rank > 0) {
      numbers[Key{f.category, f.category_rank}] = {priority, Json(f.id), Json()};
    }
    for (const MergedPart& part : f.parts) {
      if (part.contributed || part.category_rank <= 0) continue;
      numbers[Key{part.category, part.category_rank}] = {priority, Json(part.id), Json(f.id)};
    }
  }
  const auto key_of = [](const Json& f) -> std::optional<Key> {
    const Json* category = f.find("category");
    const Json* rank = f.find("category_rank");
    if (category == nullptr || !category->is_string() || rank == nullptr || !rank->is_int()) {
      return std::nullopt;
    }
    return Key{category->as_string(), rank->as_int()};
  };
  if (priority_data.find("findings") == nullptr || !priority_data["findings"].is_array()) return;
  for (auto& entry : priority_data["findings"].as_array()) {
    const auto key = key_of(entry);
    const auto it = key ? numbers.find(*key) : numbers.end();
    const Number n = it != numbers.end() ? it->second : Number{};
    entry["run_priority"] = n.priority;
    entry["finding_id"] = n.id;
    entry["part_of"] = n.part_of;
  }
}

}  // namespace loupe::core
