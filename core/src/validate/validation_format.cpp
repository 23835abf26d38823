// Text and JSON renderings of a ValidationResult.
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "loupe/core/validator.hpp"

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
  for (const std::string& error : result.errors) {
    writer.String(error.data(), static_cast<rapidjson::SizeType>(error.size()));
  }
  writer.EndArray();
  writer.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace loupe::core
