// Guards for every JSON entry point (header-only: the trace, validate and core libraries all use
// them): the nesting depth, so that deeply nested input is refused before a recursive parser,
// walker or destructor could overflow the stack; and parse_json_exact, the one parser for JSON
// whose numbers must read as Python reads them (docs/reliability.md).
#pragma once

#include <rapidjson/document.h>
#include <rapidjson/encodedstream.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace loupe::core {

// The deepest input Loupe accepts anywhere (arrays and objects nested in each other).
inline constexpr std::size_t kMaxJsonDepth = 512;

// Tracks whether a scan of JSON text is inside a string. Returns true when `c` belongs to a
// string (its quotes included), false when it is structure or a number.
struct JsonStringState {
  bool in_string = false;
  bool escaped = false;
  bool consume(char c) {
    if (in_string) {
      if (escaped) {
        escaped = false;
      } else if (c == '\\') {
        escaped = true;
      } else if (c == '"') {
        in_string = false;
      }
      return true;
    }
    if (c == '"') {
      in_string = true;
      return true;
    }
    return false;
  }
};

// True when arrays/objects in `text` nest deeper than `limit` (brackets inside strings do not
// count). Linear, no allocation; malformed text is left to the parser.
inline bool json_nesting_exceeds(std::string_view text, std::size_t limit = kMaxJsonDepth) {
  std::size_t depth = 0;
  JsonStringState strings;
  for (const char c : text) {
    if (strings.consume(c)) continue;
    switch (c) {
      case '[':
      case '{':
        if (++depth > limit) return true;
        break;
      case ']':
      case '}':
        if (depth > 0) --depth;
        break;
      default:
        break;
    }
  }
  return false;
}

// What parse_json_exact reports when the text is not JSON it accepts.
struct JsonParseError {
  std::size_t offset = 0;  // byte offset in the text
  std::string reason;      // RapidJSON's message, or why a number was refused
  bool too_deep = false;   // refused for its nesting before parsing (offset 0)
};

namespace json_detail {

// Forwards RapidJSON's SAX events to a Document, turning each number (delivered as its text by
// kParseNumbersAsStringsFlag) into the value Python's json module reads: integers exactly (int64 /
// uint64, beyond that the nearest double), other numbers as the correctly rounded double, and
// NaN / Infinity / -Infinity. RapidJSON 1.1's own number conversion is never used: its
// full-precision path has shown five distinct bugs under fuzzing (docs/reliability.md).
class ExactNumberHandler {
 public:
  explicit ExactNumberHandler(rapidjson::Document& doc) : doc_(doc) {}

  bool Null() { return doc_.Null(); }
  bool Bool(bool b) { return doc_.Bool(b); }
  bool Int(int i) { return doc_.Int(i); }
  bool Uint(unsigned u) { return doc_.Uint(u); }
  bool Int64(std::int64_t i) { return doc_.Int64(i); }
  bool Uint64(std::uint64_t u) { return doc_.Uint64(u); }
  bool Double(double d) { return doc_.Double(d); }
  bool String(const char* str, rapidjson::SizeType length, bool copy) {
    return doc_.String(str, length, copy);
  }
  bool StartObject() { return doc_.StartObject(); }
  bool Key(const char* str, rapidjson::SizeType length, bool copy) {
    return doc_.Key(str, length, copy);
  }
  bool EndObject(rapidjson::SizeType members) { return doc_.EndObject(members); }
  bool StartArray() { return doc_.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) { return doc_.EndArray(elements); }

  bool RawNumber(const char* str, rapidjson::SizeType length, bool /*copy*/) {
    const std::string_view text(str, length);
    const bool negative = !text.empty() && text.front() == '-';
    const std::string_view magnitude = negative ? text.substr(1) : text;
    if (magnitude == "NaN") return doc_.Double(std::numeric_limits<double>::quiet_NaN());
    if (magnitude == "Infinity" || magnitude == "Inf") {
      const double inf = std::numeric_limits<double>::infinity();
      return doc_.Double(negative ? -inf : inf);
    }
    if (text.find_first_not_of("+-0123456789.eE") != std::string_view::npos) {
      refused_ = std::string(text);  // "NaNE50" and the like: letters glued to a number
      return false;
    }
    const char* first = text.data();
    const char* last = text.data() + text.size();
    if (text.find_first_of(".eE") == std::string_view::npos) {
      if (negative) {
        std::int64_t value = 0;
        if (std::from_chars(first, last, value).ec == std::errc()) return doc_.Int64(value);
      } else {
        std::uint64_t value = 0;
        if (std::from_chars(first, last, value).ec == std::errc()) return doc_.Uint64(value);
      }
    }
    double value = 0.0;
    if (std::from_chars(first, last, value).ec == std::errc()) return doc_.Double(value);
    // Out of range: strtod rounds to infinity or to zero / a subnormal as Python's float() does.
    const std::string copy(text);
    return doc_.Double(std::strtod(copy.c_str(), nullptr));
  }

  const std::string& refused() const { return refused_; }

 private:
  rapidjson::Document& doc_;
  std::string refused_;
};

}  // namespace json_detail

// Parses `text` into `doc` as Python's json module would read it (NaN and Infinity accepted,
// numbers converted exactly: see ExactNumberHandler), refusing text that nests deeper than
// kMaxJsonDepth before any recursive code sees it. ExtraFlags adds RapidJSON parse flags (the
// validator adds kParseValidateEncodingFlag). Returns nothing on success.
template <unsigned ExtraFlags = 0>
std::optional<JsonParseError> parse_json_exact(rapidjson::Document& doc, std::string_view text) {
  if (json_nesting_exceeds(text)) {
    return JsonParseError{0,
                          "arrays and objects nest deeper than " + std::to_string(kMaxJsonDepth) +
                              " levels (the limit for any JSON Loupe reads)",
                          true};
  }
  json_detail::ExactNumberHandler handler(doc);
  rapidjson::ParseResult result;
  auto generate = [&](rapidjson::Document&) {
    rapidjson::MemoryStream bytes(text.data(), text.size());
    rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> input(bytes);
    rapidjson::Reader reader;
    constexpr unsigned kFlags =
        rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseNanAndInfFlag | ExtraFlags;
    result = reader.Parse<kFlags>(input, handler);
    return !result.IsError();
  };
  doc.Populate(generate);
  if (!result.IsError()) return std::nullopt;
  if (!handler.refused().empty()) {
    return JsonParseError{result.Offset(), "invalid number '" + handler.refused() + "'"};
  }
  return JsonParseError{result.Offset(), rapidjson::GetParseError_En(result.Code())};
}

}  // namespace loupe::core
