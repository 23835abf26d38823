#include "json_text.hpp"

#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/json_guards.hpp"

#include <rapidjson/document.h>

#include <string>

namespace loupe::core::prepare {
std::optional<Json> try_parse_json_text(std::string_view text) {
  rapidjson::Document doc;
  if (parse_json_exact(doc, text)) return std::nullopt;
  return to_owned_json(doc);
}

Json parse_json_text(std::string_view text) {
  if (auto parsed = try_parse_json_text(text)) return std::move(*parsed);
  return Json(std::string(text));
}

}  // namespace loupe::core::prepare
