// A parsed RapidJSON value as an owned loupe::Json (member order kept, int vs float kept), for
// host code that edits or re-serializes a document like Python's json module would.
#pragma once

#include <rapidjson/document.h>

#include <string>

#include "loupe/json_value.hpp"

namespace loupe::core {

inline Json to_owned_json(const rapidjson::Value& v) {
  if (v.IsNull()) return {};
  if (v.IsBool()) return {v.GetBool()};
  if (v.IsInt64()) return {static_cast<long long>(v.GetInt64())};
  if (v.IsUint64()) return {static_cast<double>(v.GetUint64())};
  if (v.IsNumber()) return {v.GetDouble()};
  if (v.IsString()) return {std::string(v.GetString(), v.GetStringLength())};
  if (v.IsArray()) {
    Json out = Json::array();
    for (const auto& item : v.GetArray()) out.push_back(to_owned_json(item));
    return out;
  }
  Json out = Json::object();
  for (const auto& m : v.GetObject()) {
    out.as_object().emplace_back(std::string(m.name.GetString(), m.name.GetStringLength()),
                                 to_owned_json(m.value));
  }
  return out;
}

}  // namespace loupe::core
