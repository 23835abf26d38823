#include "parse_error_text.hpp"

#include <rapidjson/error/en.h>

#include <cstdio>

namespace loupe::core::trace {

std::string describe_parse_error(rapidjson::ParseErrorCode code, char at, bool at_end) {
  if (at_end) {
    return std::string("unexpected end of input (truncated JSON?): ") +
           rapidjson::GetParseError_En(code);
  }
  const auto c = static_cast<unsigned char>(at);
  if (code == rapidjson::kParseErrorStringEscapeInvalid && c < 0x20) {
    char buf[96];
    std::snprintf(buf, sizeof(buf), "unescaped control character 0x%02X inside a string", c);
    return buf;
  }
  if (code == rapidjson::kParseErrorValueInvalid &&
      (at == 'n' || at == 'i' || at == 'N' || at == 'I' || at == 'a' || at == 'f' || at == 'e' ||
       at == 'u' || at == 't')) {
    return "invalid value (a bare nan/inf/infinity? only NaN, Infinity and -Infinity are accepted)";
  }
  return rapidjson::GetParseError_En(code);
}

}  // namespace loupe::core::trace
