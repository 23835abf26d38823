#include "loupe/core/report/run_findings.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>

#include "loupe/core/json_convert.hpp"
#include "loupe/core/version.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

constexpr const char* kManifest = "category_data/category_manifest.json";

const rapidjson::Value* member(const rapidjson::Value* object, const char* key) {
  if (object == nullptr || !object->IsObject()) return nullptr;
  const auto it = object->FindMember(key);
  return it == object->MemberEnd() ? nullptr : &it->value;
}
std::optional<double> number(const rapidjson::Value* v) {
  if (v == nullptr || !v->IsNumber()) return std::nullopt;
  const double d = v->GetDouble();
  if (d != d) return std::nullopt;  // NaN is not a measurement
  return d;
}
std::string text(const rapidjson::Value* v) {
  return v != nullptr && v->IsString() ? std::string(v->GetString(), v->GetStringLength()) : "";
}
Json number_or_null(std::optional<double> v, int digits) {
  return v ? Json(py::round_half_even(*v, digits)) : Json();
}

// The run's facts from the manifest's gpu_utilization block.
Json run_facts(const Model& model, const AnalyzeReport& report) {
  Json run = Json::object();
  run["loupe_version"] = kLoupeVersion;
  const std::string* input = model.property("input_dir");
  run["input_dir"] = input == nullptr ? "" : *input;
  const std::string* platform = model.property("platform");
  run["platform"] = platform == nullptr ? Json() : Json(*platform);
  run["scope"] = to_string(report.scope);
  run["workload"] = to_string(report.workload);
  const auto* manifest = model.document(kManifest);
  const auto* utilization = member(manifest, "gpu_utilization");
  for (const char* key : {"total_time_ms", "computation_time_percent", "idle_time_percent",
                          "exposed_comm_time_percent", "exposed_memcpy_time_percent"}) {
    run[key] = number_or_null(number(member(utilization, key)), 3);
  }
  return run;
}

// 64-bit FNV-1a, printed as 12 hex digits: short, stable, no dependency.
std::string short_hash(const std::string& text) {
  std::uint64_t h = 1469598103934665603ULL;
  for (const unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ULL;
  }
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return {buf, 12};
}

std::string without_digits(const std::string& title) {
  std::string out;
  for (const char c : title) {
    if ((c >= '0' && c <= '9') || c == '.' || c == ',') continue;
    out.push_back(c);
  }
  return out;
}

struct Entry {
  Json finding;
  std::optional<double> saving_mid_ms;
  size_t order = 0;
};

// The kernel names of one operation in metrics.operations[] (compute tier).
Json kernels_of(const rapidjson::Value* metrics, const std::string& op) {
  Json kernels = Json::array();
  const auto* operations = member(metrics, "operations");
  if (operations == nullptr || !operations->IsArray()) return kernels;
  for (const auto& o : operations->GetArray()) {
    if (text(member(&o, "name")) != op) continue;
    const std::string kernel = text(member(&o, "kernel_name"));
    if (!kernel.empty()) kernels.push_back(kernel);
  }
  return kernels;
}

void add_category(const Model& model, const PluginOutcome& plugin, const CategoryOutcome& c,
                  std::optional<double> baseline_ms, std::vector<Entry>& out) {
  const auto* recs = member(c.findings_document.get(), "recommendations");
  if (recs == nullptr || !recs->IsArray()) return;
  const auto* metrics = model.document(c.metrics_path);
  const auto* category_findings = member(metrics, "category_findings");
  const bool compute = plugin.plugin->tier == Tier::Compute;
  std::map<std::string, int> identities_seen;  // cards whose identity repeats get an ordinal
  for (rapidjson::SizeType i = 0; i < recs->Size(); ++i) {
    const auto& rec = (*recs)[i];
    // Compute-tier cards follow category_findings[] one to one (docs/findings-schema.md).
    const rapidjson::Value* cf = nullptr;
    if (compute && category_findings != nullptr && category_findings->IsArray() &&
        i < category_findings->Size()) {
      cf = &(*category_findings)[i];
    }
    Json f = Json::object();
    Json ops = Json::array();
    Json kernels = Json::array();
    std::optional<double> time_ms;
    std::string identity;
    if (const auto* members = member(cf, "members"); members != nullptr && members->IsArray()) {
      std::vector<std::string> names;
      for (const auto& m : members->GetArray()) {
        const std::string op = text(member(&m, "operation"));
        names.push_back(op);
        ops.push_back(op);
        Json op_kernels = kernels_of(metrics, op);
        for (auto& k : op_kernels.as_array()) kernels.push_back(std::move(k));
        if (const auto t = number(member(&m, "time_ms"))) time_ms = time_ms.value_or(0.0) + *t;
      }
      std::sort(names.begin(), names.end());
      identity = text(member(cf, "bound_type")) + "|" + text(member(cf, "library")) + "|" +
                 text(member(cf, "eff_bucket"));
      for (const auto& n : names) identity += "|" + n;
    } else {
      identity = without_digits(text(member(&rec, "title")));
    }
    if (const int n = ++identities_seen[identity]; n > 1) identity += "#" + std::to_string(n);
    f["id"] = finding_id(c.category, identity);
    f["category"] = c.category;
    f["tier"] = to_string(plugin.plugin->tier);
    f["plugin"] = plugin.plugin->name;
    f["priority"] = nullptr;  // set after ranking
    f["category_rank"] = static_cast<long long>(i + 1);
    f["title"] = text(member(&rec, "title"));
    const std::string library = text(member(&rec, "library"));
    f["library"] = library.empty() ? Json() : Json(library);
    f["operations"] = std::move(ops);
    f["kernels"] = std::move(kernels);
    f["measured_time_ms"] = number_or_null(time_ms, 3);
    f["bound_type"] = cf == nullptr ? Json() : Json(text(member(cf, "bound_type")));
    f["estimate_method"] = cf == nullptr ? Json() : Json(text(member(cf, "estimate_method")));
    const auto* impact = member(&rec, "impact");
    Json pct = Json::object();
    Json ms = Json::object();
    std::optional<double> mid_ms;
    for (const auto& [key, name] :
         {std::pair{"low", "low"}, std::pair{"mid", "mid"}, std::pair{"high", "high"}}) {
      const auto p = number(member(impact, key));
      pct[name] = number_or_null(p, 2);
      std::optional<double> m;
      if (p && baseline_ms) m = *p / 100.0 * *baseline_ms;
      ms[name] = number_or_null(m, 3);
      if (std::string_view(key) == "mid") mid_ms = m;
    }
    f["saving_percent_of_e2e"] = std::move(pct);
    f["saving_ms"] = std::move(ms);
    f["insight"] = text(member(&rec, "insight"));
    f["action"] = text(member(&rec, "action"));
    Json files = Json::array();
    files.push_back(c.metrics_path);
    files.push_back(c.findings_path);
    const std::string ops_csv = "category_data/" + c.category + "_ops.csv";
    if (compute && model.table(ops_csv) != nullptr) files.push_back(ops_csv);
    Json backing = Json::object();
    backing["files"] = std::move(files);
    backing["rows"] = f["operations"];
    f["evidence"] = std::move(backing);
    out.push_back({std::move(f), mid_ms, out.size()});
  }
}

}  // namespace

std::string finding_id(const std::string& category, const std::string& identity) {
  return category + "-" + short_hash(category + "\n" + identity);
}

Json build_run_findings(const Model& model, const AnalyzeReport& report) {
  Json doc = Json::object();
  doc["schema"] = kRunFindingsSchema;
  doc["run"] = run_facts(model, report);
  const auto baseline =
      number(member(member(model.document(kManifest), "gpu_utilization"), "total_time_ms"));
  Json categories = Json::array();
  std::vector<Entry> entries;
  for (const auto& plugin : report.plugins) {
    for (const auto& c : plugin.categories) {
      Json cj = Json::object();
      cj["category"] = c.category;
      cj["plugin"] = plugin.plugin->name;
      cj["tier"] = to_string(plugin.plugin->tier);
      cj["status"] = findings::to_string(c.status);
      cj["findings_count"] = static_cast<long long>(c.findings_count);
      if (!c.message.empty()) cj["message"] = c.message;
      categories.push_back(std::move(cj));
      if (c.status == findings::Status::Ok && c.findings_document) {
        add_category(model, plugin, c, baseline, entries);
      }
    }
  }
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    if (a.saving_mid_ms.has_value() != b.saving_mid_ms.has_value()) {
      return a.saving_mid_ms.has_value();
    }
    return a.saving_mid_ms.value_or(0.0) > b.saving_mid_ms.value_or(0.0);
  });
  Json findings = Json::array();
  long long priority = 0;
  for (auto& e : entries) {
    e.finding["priority"] = ++priority;
    findings.push_back(std::move(e.finding));
  }
  doc["categories"] = std::move(categories);
  Json unhandled = Json::array();
  for (const auto& u : report.unhandled) unhandled.push_back(u);
  doc["unhandled_categories"] = std::move(unhandled);
  doc["findings"] = std::move(findings);
  return doc;
}

}  // namespace loupe::core
