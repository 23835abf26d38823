// Text and JSON renderings of a ValidationResult.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/validate/validator.hpp"

namespace loupe::core {

std::string format_validation_text(const ValidationResult& result) {
  if (result.passed) {
    return "PASS: Findings file is valid\n";
  }
  std::string out = "FAIL:\n";
  for (const std::string& error : result.errors) {
    out += "  - ";
    out += error;
    out += '\n';
  }
  return out;
}

std::string format_validation_json(const ValidationResult& result) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.StartObject();
  writer.Key("passed");
  writer.Bool(result.passed);
  writer.Key("errors");
  writer.StartArray();
  // Errors quote the validated file, which may hold bytes that are not UTF-8: they are replaced
  // (U+FFFD) so that the output is always JSON any parser reads (docs/report.md).
  for (const std::string& error : result.errors) {
    const std::string text = replace_invalid_utf8(error);
    writer.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
  }
  writer.EndArray();
  writer.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace loupe::core
