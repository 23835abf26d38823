#include "unicode_tables.hpp"

#include <algorithm>

#include "utf8.hpp"

namespace loupe::core::validate_detail {
namespace {

bool in_ranges(const CodePointRange* ranges, std::size_t count, char32_t cp) {
  const CodePointRange* end = ranges + count;
  const CodePointRange* it = std::upper_bound(
      ranges, end, cp, [](char32_t value, const CodePointRange& r) { return value < r.first; });
  if (it == ranges) {
    return false;
  }
  --it;
  return cp >= it->first && cp <= it->last;
}

}  // namespace

bool is_word_char(char32_t cp) {
  if (cp < 0x80) {
    return (cp >= U'a' && cp <= U'z') || (cp >= U'A' && cp <= U'Z') || (cp >= U'0' && cp <= U'9') ||
           cp == U'_';
  }
  return in_ranges(kWordRanges, kWordRanges_size, cp);
}

bool is_decimal_digit(char32_t cp) {
  if (cp < 0x80) {
    return cp >= U'0' && cp <= U'9';
  }
  return in_ranges(kDecimalRanges, kDecimalRanges_size, cp);
}

bool is_space_char(char32_t cp) {
  switch (cp) {
    case 0x09:
    case 0x0A:
    case 0x0B:
    case 0x0C:
    case 0x0D:  // \t \n \v \f \r
    case 0x1C:
    case 0x1D:
    case 0x1E:
    case 0x1F:
    case 0x20:
    case 0x85:
    case 0xA0:
    case 0x1680:
    case 0x2028:
    case 0x2029:
    case 0x202F:
    case 0x205F:
    case 0x3000:
      return true;
    default:
      return cp >= 0x2000 && cp <= 0x200A;
  }
}

bool is_printable_char(char32_t cp) {
  if (cp < 0x80) {
    return cp >= 0x20 && cp < 0x7F;
  }
  return in_ranges(kPrintableRanges, kPrintableRanges_size, cp);
}

void append_lowercase(char32_t cp, std::string& out) {
  if (cp < 0x80) {
    const char ascii = static_cast<char>(cp);
    out.push_back(ascii >= 'A' && ascii <= 'Z' ? static_cast<char>(ascii - 'A' + 'a') : ascii);
    return;
  }
  const LowerMapping* end = kLowerMappings + kLowerMappings_size;
  const LowerMapping* it =
      std::lower_bound(kLowerMappings, end, cp,
                       [](const LowerMapping& m, char32_t value) { return m.from < value; });
  if (it == end || it->from != cp) {
    append_utf8(cp, out);
    return;
  }
  for (const char32_t target : it->to) {
    if (target != 0) {
      append_utf8(target, out);
    }
  }
}

}  // namespace loupe::core::validate_detail
