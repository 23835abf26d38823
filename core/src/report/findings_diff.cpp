#include "loupe/core/report/findings_diff.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/util/strict_json.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

const Json::Array& findings_of(const Json& doc, const char* which) {
  if (const std::string why = findings_diff_input_problem(doc); !why.empty()) {
    throw std::invalid_argument(std::string(which) + " " + why);
  }
  return doc.find("findings")->as_array();
}

std::string text_at(const Json& f, const char* key) {
  const Json* v = f.find(key);
  return v != nullptr && v->is_string() ? v->as_string() : std::string();
}

std::optional<double> mid_saving(const Json& f) {
  const Json* s = f.find("saving_ms");
  const Json* mid = s == nullptr ? nullptr : s->find("mid");
  if (mid == nullptr || !mid->is_number()) return std::nullopt;
  return mid->as_double();
}

FindingChange change(const Json& f) {
  return {text_at(f, "id"), text_at(f, "category"), text_at(f, "title"), std::nullopt,
          std::nullopt};
}

}  // namespace

std::string findings_diff_input_problem(const Json& doc) {
  const Json* schema = doc.find("schema");
  if (!doc.is_object() || schema == nullptr || !schema->is_string() ||
      schema->as_string() != kRunFindingsSchema) {
    return std::string("is not a ") + kRunFindingsSchema +
           " document (a findings.json written by loupe analyze)";
  }
  const Json* findings = doc.find("findings");
  if (findings == nullptr || !findings->is_array()) return "has no \"findings\" list";
  const auto& list = findings->as_array();
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string at = "findings[" + std::to_string(i) + "]";
    for (const char* key : {"id", "category", "title"}) {
      const Json* v = list[i].find(key);
      if (v == nullptr || !v->is_string()) continue;
      if (const std::string why = invalid_utf8_reason(v->as_string()); !why.empty()) {
        return "has " + at + "." + key + " with invalid text: " + why;
      }
    }
    const Json* saving = list[i].find("saving_ms");
    const Json* mid = saving == nullptr ? nullptr : saving->find("mid");
    if (mid != nullptr && mid->is_number() && !std::isfinite(mid->as_double())) {
      return "has " + at + ".saving_ms.mid = " +
             (std::isnan(mid->as_double()) ? "NaN"
              : mid->as_double() < 0       ? "-Infinity"
                                           : "Infinity") +
             ", not a finite number of ms";
    }
  }
  return {};
}

FindingsDiff diff_findings(const Json& old_doc, const Json& new_doc, double grow_percent) {
  const auto& old_list = findings_of(old_doc, "OLD");
  const auto& new_list = findings_of(new_doc, "NEW");
  std::map<std::string, const Json*> old_by_id;
  std::map<std::string, const Json*> new_by_id;
  for (const auto& f : old_list) old_by_id.emplace(text_at(f, "id"), &f);
  for (const auto& f : new_list) new_by_id.emplace(text_at(f, "id"), &f);
  FindingsDiff diff;
  for (const auto& f : new_list) {
    const auto it = old_by_id.find(text_at(f, "id"));
    FindingChange c = change(f);
    c.new_saving_ms = mid_saving(f);
    if (it == old_by_id.end()) {
      diff.appeared.push_back(std::move(c));
      continue;
    }
    c.old_saving_ms = mid_saving(*it->second);
    if (c.old_saving_ms && c.new_saving_ms && *c.new_saving_ms - *c.old_saving_ms >= 0.001 &&
        *c.new_saving_ms > *c.old_saving_ms * (1.0 + grow_percent / 100.0)) {
      diff.grew.push_back(std::move(c));
    } else {
      ++diff.unchanged;
    }
  }
  for (const auto& f : old_list) {
    if (new_by_id.contains(text_at(f, "id"))) continue;
    FindingChange c = change(f);
    c.old_saving_ms = mid_saving(f);
    diff.vanished.push_back(std::move(c));
  }
  return diff;
}

Json findings_diff_json(const FindingsDiff& diff) {
  auto list = [](const std::vector<FindingChange>& changes) {
    Json out = Json::array();
    for (const auto& c : changes) {
      Json j = Json::object();
      j["id"] = c.id;
      j["category"] = c.category;
      j["title"] = c.title;
      j["old_saving_ms"] = rounded_or_null(c.old_saving_ms, 3);
      j["new_saving_ms"] = rounded_or_null(c.new_saving_ms, 3);
      out.push_back(std::move(j));
    }
    return out;
  };
  Json j = Json::object();
  j["appeared"] = list(diff.appeared);
  j["vanished"] = list(diff.vanished);
  j["grew"] = list(diff.grew);
  j["unchanged"] = static_cast<long long>(diff.unchanged);
  return j;
}

}  // namespace loupe::core
