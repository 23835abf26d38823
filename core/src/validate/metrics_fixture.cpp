#include "metrics_fixture.hpp"

#include "loupe/core/util/json_guards.hpp"

#include <fstream>
#include <iterator>
#include <optional>
#include <system_error>

#include <rapidjson/document.h>

#include "python_text.hpp"

namespace loupe::core::validate_detail {
namespace {

// Python dicts keep the last value of a duplicated key; RapidJSON's FindMember returns the
// first, so scan all members.
const rapidjson::Value* last_member(const rapidjson::Value& object, std::string_view key) {
  const rapidjson::Value* found = nullptr;
  for (const auto& member : object.GetObject()) {
    if (std::string_view(member.name.GetString(), member.name.GetStringLength()) == key) {
      found = &member.value;
    }
  }
  return found;
}

std::string as_string(const rapidjson::Value& value) {
  return {value.GetString(), value.GetStringLength()};
}

std::optional<std::string> read_file(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return std::nullopt;
  }
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    return std::nullopt;
  }
  std::string content((std::istreambuf_iterator<char>(stream)), std::istreambuf_iterator<char>());
  if (stream.bad()) {
    return std::nullopt;
  }
  return content;
}

void collect_operation(const rapidjson::Value& operation, MetricsFixture& fixture) {
  if (const auto* args = last_member(operation, "args"); args != nullptr && args->IsString()) {
    fixture.args.insert(as_string(*args));
  }
  if (const auto* path = last_member(operation, "launcher_path");
      path != nullptr && path->IsString() && path->GetStringLength() > 0) {
    fixture.launcher_paths.insert(as_string(*path));
  }
  if (const auto* name = last_member(operation, "kernel_name_trunc");
      name != nullptr && name->IsString() && name->GetStringLength() > 0) {
    fixture.kernel_names.insert(as_string(*name));
  }
}

}  // namespace

std::filesystem::path derive_metrics_path(const std::filesystem::path& findings_path) {
  const std::string basename = findings_path.filename().string();
  const std::string stem = replace_all(basename, "_findings.md", "");
  return findings_path.parent_path().parent_path() / "category_data" / (stem + "_metrics.json");
}

MetricsFixture load_metrics_fixture(const std::filesystem::path& metrics_path) {
  const auto content = read_file(metrics_path);
  if (!content) {
    return {};
  }
  return metrics_fixture_from_text(*content, metrics_path.filename().string());
}

MetricsFixture metrics_fixture_from_text(std::optional<std::string_view> content,
                                         std::string_view name) {
  MetricsFixture fixture;
  if (!content) {
    return fixture;
  }
  // Malformed, or too deep to parse safely: unparsable either way.
  rapidjson::Document document;
  if (loupe::core::parse_json_exact<rapidjson::kParseValidateEncodingFlag>(document, *content)) {
    return fixture;
  }
  if (!document.IsObject()) {
    fixture.io_error = std::string(name) + ": top-level JSON value is not an object";
    return fixture;
  }
  if (const auto* findings = last_member(document, "category_findings");
      findings != nullptr && findings->IsArray()) {
    fixture.category_findings_empty = findings->Empty();
  }
  const auto* operations = last_member(document, "operations");
  if (operations == nullptr) {
    return fixture;
  }
  if (!operations->IsArray()) {
    fixture.io_error = std::string(name) + ": 'operations' is not a list";
    return fixture;
  }
  for (const auto& operation : operations->GetArray()) {
    if (!operation.IsObject()) {
      fixture.io_error = std::string(name) + ": an entry of 'operations' is not an object";
      return fixture;
    }
    collect_operation(operation, fixture);
  }
  return fixture;
}

}  // namespace loupe::core::validate_detail
