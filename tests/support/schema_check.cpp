#include "schema_check.hpp"

#include <cmath>
#include <regex>
#include <set>
#include <string_view>

namespace loupe::test {

namespace {

using rapidjson::Value;

class Checker {
 public:
  explicit Checker(const Value& root) : root_(root) {}

  void check(const Value& schema, const Value& v, const std::string& at) {
    if (!schema.IsObject()) return problem(at, "schema is not an object");
    for (const auto& m : schema.GetObject()) {
      const std::string_view key(m.name.GetString(), m.name.GetStringLength());
      if (kKnown.count(key) == 0)
        problem(at, "schema keyword '" + std::string(key) + "' unsupported");
    }
    if (const auto ref = schema.FindMember("$ref"); ref != schema.MemberEnd()) {
      return check(resolve(ref->value, at), v, at);
    }
    if (const auto t = schema.FindMember("type"); t != schema.MemberEnd())
      check_type(t->value, v, at);
    if (const auto c = schema.FindMember("const"); c != schema.MemberEnd() && c->value != v) {
      problem(at, "is not the constant the schema requires");
    }
    if (const auto e = schema.FindMember("enum"); e != schema.MemberEnd()) {
      bool found = false;
      for (const auto& option : e->value.GetArray()) found |= option == v;
      if (!found) problem(at, "is not one of the schema's enum values");
    }
    if (const auto min = schema.FindMember("minimum");
        min != schema.MemberEnd() && v.IsNumber() && v.GetDouble() < min->value.GetDouble()) {
      problem(at, "is below the minimum");
    }
    if (const auto max = schema.FindMember("maximum");
        max != schema.MemberEnd() && v.IsNumber() && v.GetDouble() > max->value.GetDouble()) {
      problem(at, "is above the maximum");
    }
    if (const auto pattern = schema.FindMember("pattern");
        pattern != schema.MemberEnd() && v.IsString() &&
        !std::regex_search(v.GetString(), std::regex(pattern->value.GetString()))) {
      problem(at, "does not match the schema's pattern");
    }
    if (v.IsArray()) {
      const auto min_items = schema.FindMember("minItems");
      const auto max_items = schema.FindMember("maxItems");
      if ((min_items != schema.MemberEnd() && v.Size() < min_items->value.GetUint()) ||
          (max_items != schema.MemberEnd() && v.Size() > max_items->value.GetUint())) {
        problem(at, "has a number of items outside the schema's bounds");
      }
    }
    if (v.IsObject()) check_object(schema, v, at);
    if (const auto items = schema.FindMember("items"); items != schema.MemberEnd() && v.IsArray()) {
      for (rapidjson::SizeType i = 0; i < v.Size(); ++i) {
        check(items->value, v[i], at + "/" + std::to_string(i));
      }
    }
  }

  std::vector<std::string> problems;

 private:
  void problem(const std::string& at, const std::string& what) {
    problems.push_back((at.empty() ? "/" : at) + ": " + what);
  }

  const Value& resolve(const Value& ref, const std::string& at) {
    static const Value kEmpty(rapidjson::kObjectType);
    const std::string_view text = ref.IsString() ? ref.GetString() : "";
    constexpr std::string_view kPrefix = "#/$defs/";
    const auto defs = root_.FindMember("$defs");
    if (text.substr(0, kPrefix.size()) != kPrefix || defs == root_.MemberEnd()) {
      problem(at, "unsupported $ref");
      return kEmpty;
    }
    const std::string name(text.substr(kPrefix.size()));
    const auto def = defs->value.FindMember(name.c_str());
    if (def == defs->value.MemberEnd()) {
      problem(at, "$ref to a missing definition '" + name + "'");
      return kEmpty;
    }
    return def->value;
  }

  static bool is_type(std::string_view type, const Value& v) {
    if (type == "object") return v.IsObject();
    if (type == "array") return v.IsArray();
    if (type == "string") return v.IsString();
    if (type == "number") return v.IsNumber();
    if (type == "integer") return v.IsInt64() || v.IsUint64();
    if (type == "boolean") return v.IsBool();
    if (type == "null") return v.IsNull();
    return false;
  }

  void check_type(const Value& type, const Value& v, const std::string& at) {
    if (type.IsString()) {
      if (!is_type(type.GetString(), v))
        problem(at, std::string("is not of type ") + type.GetString());
      return;
    }
    for (const auto& t : type.GetArray()) {
      if (t.IsString() && is_type(t.GetString(), v)) return;
    }
    problem(at, "is not of any of the schema's types");
  }

  void check_object(const Value& schema, const Value& v, const std::string& at) {
    if (const auto req = schema.FindMember("required"); req != schema.MemberEnd()) {
      for (const auto& key : req->value.GetArray()) {
        if (!v.HasMember(key))
          problem(at, std::string("lacks required member '") + key.GetString() + "'");
      }
    }
    const auto props = schema.FindMember("properties");
    const auto extra = schema.FindMember("additionalProperties");
    for (const auto& m : v.GetObject()) {
      const std::string child = at + "/" + m.name.GetString();
      if (props != schema.MemberEnd()) {
        if (const auto p = props->value.FindMember(m.name); p != props->value.MemberEnd()) {
          check(p->value, m.value, child);
          continue;
        }
      }
      if (extra != schema.MemberEnd() && extra->value.IsObject())
        check(extra->value, m.value, child);
    }
  }

  static inline const std::set<std::string_view> kKnown = {
      "$schema", "$id",      "$ref",     "$defs",    "title",      "description",
      "note",    "type",     "const",    "enum",     "minimum",    "maximum",
      "pattern", "minItems", "maxItems", "required", "properties", "additionalProperties",
      "items"};
  const Value& root_;
};

}  // namespace

std::vector<std::string> schema_problems(const Value& schema, const Value& doc) {
  Checker c(schema);
  c.check(schema, doc, "");
  return c.problems;
}

}  // namespace loupe::test
