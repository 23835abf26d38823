#include "json_text.hpp"

#include "loupe/core/json_guards.hpp"

#include <rapidjson/document.h>

#include <string>

namespace loupe::core::prepare {
namespace {

Json from_rapidjson(const rapidjson::Value& v) {
  if (v.IsNull()) return Json();
  if (v.IsBool()) return Json(v.GetBool());
  if (v.IsInt64()) return Json(static_cast<long long>(v.GetInt64()));
  if (v.IsUint64()) return Json(static_cast<double>(v.GetUint64()));
  if (v.IsNumber()) return Json(v.GetDouble());
  if (v.IsString()) return Json(std::string(v.GetString(), v.GetStringLength()));
  if (v.IsArray()) {
    Json out = Json::array();
    for (const auto& item : v.GetArray()) out.push_back(from_rapidjson(item));
    return out;
  }
  Json out = Json::object();
  for (const auto& m : v.GetObject()) {
    out.as_object().emplace_back(std::string(m.name.GetString(), m.name.GetStringLength()),
                                 from_rapidjson(m.value));
  }
  return out;
}

}  // namespace

std::optional<Json> try_parse_json_text(std::string_view text) {
  const auto fixed = numbers_safe_for_rapidjson(text);
  if (fixed) text = *fixed;
  if (json_nesting_exceeds(text)) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseNanAndInfFlag>(text.data(),
                                                                                 text.size());
  if (doc.HasParseError()) return std::nullopt;
  return from_rapidjson(doc);
}

Json parse_json_text(std::string_view text) {
  if (auto parsed = try_parse_json_text(text)) return std::move(*parsed);
  return Json(std::string(text));
}

}  // namespace loupe::core::prepare
