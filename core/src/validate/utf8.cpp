#include "utf8.hpp"

namespace loupe::core::validate_detail {
namespace {

constexpr DecodedChar kReplacement{0xFFFD, 1};

bool is_continuation(unsigned char byte) { return (byte & 0xC0U) == 0x80U; }

unsigned char byte_at(std::string_view text, std::size_t pos) {
  return static_cast<unsigned char>(text[pos]);
}

}  // namespace

bool is_valid_utf8(std::string_view bytes) {
  std::size_t pos = 0;
  while (pos < bytes.size()) {
    const unsigned char lead = byte_at(bytes, pos);
    if (lead < 0x80) {
      ++pos;
      continue;
    }
    std::size_t length = 0;
    unsigned char second_min = 0x80;
    unsigned char second_max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF) {
      length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
      length = 3;
      if (lead == 0xE0) second_min = 0xA0;  // overlong
      if (lead == 0xED) second_max = 0x9F;  // surrogates
    } else if (lead >= 0xF0 && lead <= 0xF4) {
      length = 4;
      if (lead == 0xF0) second_min = 0x90;  // overlong
      if (lead == 0xF4) second_max = 0x8F;  // above U+10FFFF
    } else {
      return false;
    }
    if (pos + length > bytes.size()) {
      return false;
    }
    const unsigned char second = byte_at(bytes, pos + 1);
    if (second < second_min || second > second_max) {
      return false;
    }
    for (std::size_t i = 2; i < length; ++i) {
      if (!is_continuation(byte_at(bytes, pos + i))) {
        return false;
      }
    }
    pos += length;
  }
  return true;
}

DecodedChar decode_at(std::string_view text, std::size_t pos) {
  const unsigned char lead = byte_at(text, pos);
  if (lead < 0x80) {
    return {lead, 1};
  }
  std::size_t length = 0;
  char32_t code_point = 0;
  if ((lead & 0xE0U) == 0xC0U) {
    length = 2;
    code_point = lead & 0x1FU;
  } else if ((lead & 0xF0U) == 0xE0U) {
    length = 3;
    code_point = lead & 0x0FU;
  } else if ((lead & 0xF8U) == 0xF0U) {
    length = 4;
    code_point = lead & 0x07U;
  } else {
    return kReplacement;
  }
  if (pos + length > text.size()) {
    return kReplacement;
  }
  for (std::size_t i = 1; i < length; ++i) {
    const unsigned char next = byte_at(text, pos + i);
    if (!is_continuation(next)) {
      return kReplacement;
    }
    code_point = (code_point << 6U) | (next & 0x3FU);
  }
  return {code_point, length};
}

DecodedChar decode_before(std::string_view text, std::size_t pos) {
  std::size_t start = pos - 1;
  while (start > 0 && pos - start < 4 && is_continuation(byte_at(text, start))) {
    --start;
  }
  const DecodedChar decoded = decode_at(text, start);
  if (start + decoded.length != pos) {
    return {byte_at(text, pos - 1), 1};
  }
  return decoded;
}

void append_utf8(char32_t code_point, std::string& out) {
  const auto push = [&out](char32_t bits) { out.push_back(static_cast<char>(bits)); };
  if (code_point < 0x80) {
    push(code_point);
  } else if (code_point < 0x800) {
    push(0xC0U | (code_point >> 6U));
    push(0x80U | (code_point & 0x3FU));
  } else if (code_point < 0x10000) {
    push(0xE0U | (code_point >> 12U));
    push(0x80U | ((code_point >> 6U) & 0x3FU));
    push(0x80U | (code_point & 0x3FU));
  } else {
    push(0xF0U | (code_point >> 18U));
    push(0x80U | ((code_point >> 12U) & 0x3FU));
    push(0x80U | ((code_point >> 6U) & 0x3FU));
    push(0x80U | (code_point & 0x3FU));
  }
}

}  // namespace loupe::core::validate_detail
