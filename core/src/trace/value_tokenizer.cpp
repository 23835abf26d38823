#include "value_tokenizer.hpp"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "value_extent.hpp"

namespace loupe::core::trace {

namespace {

inline bool is_digit(char c) { return c >= '0' && c <= '9'; }

inline const char* skip_ws(const char* p, const char* end) {
  while (p != end && is_json_whitespace(*p)) ++p;
  return p;
}

// First byte in [p, end) that is '"', '\\' or a control character (< 0x20), or end.
inline const char* find_string_special(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i ctrl_max = _mm_set1_epi8(0x1F);
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // v <= 0x1F (unsigned) <=> saturating v - 0x1F == 0.
    const __m128i ctrl = _mm_cmpeq_epi8(_mm_subs_epu8(v, ctrl_max), _mm_setzero_si128());
    const __m128i hit =
        _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)), ctrl);
    const int mask = _mm_movemask_epi8(hit);
    if (mask != 0) return p + __builtin_ctz(static_cast<unsigned>(mask));
    p += 16;
  }
#endif
  while (p != end) {
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"' || c == '\\' || c < 0x20) return p;
    ++p;
  }
  return end;
}

inline int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// UTF-8 encoding of a BMP code point outside the surrogate range (as RapidJSON's UTF8::Encode).
void encode_utf8(unsigned cp, std::vector<char>& out) {
  if (cp < 0x80) {
    out.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    out.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

}  // namespace

TokenizeStatus ValueTokenizer::scan_escaped(const char* start, const char*& p, const char* end,
                                            TokenKind kind) {
  const std::size_t offset = scratch_.size();
  scratch_.insert(scratch_.end(), start, p);
  while (true) {
    const char* q = find_string_special(p, end);
    scratch_.insert(scratch_.end(), p, q);
    p = q;
    if (p == end) return TokenizeStatus::kIncomplete;
    const auto c = static_cast<unsigned char>(*p);
    if (c == '"') break;
    if (c < 0x20) return TokenizeStatus::kInvalid;
    // Backslash.
    if (end - p < 2) return TokenizeStatus::kIncomplete;
    const char e = p[1];
    p += 2;
    switch (e) {
      case '"':
      case '\\':
      case '/':
        scratch_.push_back(e);
        break;
      case 'b':
        scratch_.push_back('\b');
        break;
      case 'f':
        scratch_.push_back('\f');
        break;
      case 'n':
        scratch_.push_back('\n');
        break;
      case 'r':
        scratch_.push_back('\r');
        break;
      case 't':
        scratch_.push_back('\t');
        break;
      case 'u': {
        if (end - p < 4) return TokenizeStatus::kIncomplete;
        unsigned cp = 0;
        for (int i = 0; i < 4; ++i) {
          const int h = hex_value(p[i]);
          if (h < 0) return TokenizeStatus::kInvalid;
          cp = cp * 16 + static_cast<unsigned>(h);
        }
        if (cp >= 0xD800 && cp <= 0xDFFF) return TokenizeStatus::kInvalid;  // left to RapidJSON
        p += 4;
        encode_utf8(cp, scratch_);
        break;
      }
      default:
        return TokenizeStatus::kInvalid;
    }
  }
  ++p;  // closing quote
  tokens_.push_back(Token{reinterpret_cast<const char*>(offset), p,
                          static_cast<std::uint32_t>(scratch_.size() - offset), kind, true});
  return TokenizeStatus::kOk;
}

TokenizeStatus ValueTokenizer::scan_string(const char*& p, const char* end, TokenKind kind) {
  const char* start = ++p;  // after the opening quote
  p = find_string_special(p, end);
  if (p == end) return TokenizeStatus::kIncomplete;
  if (*p == '"') {
    ++p;
    push(kind, start, static_cast<std::size_t>(p - 1 - start), p);
    return TokenizeStatus::kOk;
  }
  if (*p != '\\') return TokenizeStatus::kInvalid;  // control character
  return scan_escaped(start, p, end, kind);
}

TokenizeStatus ValueTokenizer::scan_number(const char*& p, const char* end) {
  const char* start = p;
  if (*p == '-') ++p;
  if (p == end) return TokenizeStatus::kIncomplete;
  if (*p == '0') {
    ++p;
  } else if (*p >= '1' && *p <= '9') {
    while (p != end && is_digit(*p)) ++p;
  } else {
    return TokenizeStatus::kInvalid;  // NaN, Infinity, garbage: RapidJSON decides
  }
  if (p == end) return TokenizeStatus::kIncomplete;
  if (*p == '.') {
    ++p;
    if (p == end) return TokenizeStatus::kIncomplete;
    if (!is_digit(*p)) return TokenizeStatus::kInvalid;
    while (p != end && is_digit(*p)) ++p;
    if (p == end) return TokenizeStatus::kIncomplete;
  }
  // Exponents (RapidJSON range-checks them) and very long numbers are left to RapidJSON.
  if (*p == 'e' || *p == 'E' || p - start > 64) return TokenizeStatus::kInvalid;
  push(TokenKind::kNumber, start, static_cast<std::size_t>(p - start), p);
  return TokenizeStatus::kOk;
}

TokenizeStatus ValueTokenizer::tokenize(const char* begin, const char* end) {
  tokens_.clear();
  scratch_.clear();
  stack_.clear();
  const char* p = begin;
  TokenizeStatus st = TokenizeStatus::kOk;

parse_value:
  if (p == end) return TokenizeStatus::kIncomplete;
  switch (*p) {
    case '{':
      ++p;
      push(TokenKind::kStartObject, nullptr, 0, p);
      p = skip_ws(p, end);
      if (p == end) return TokenizeStatus::kIncomplete;
      if (*p == '}') {
        ++p;
        push(TokenKind::kEndObject, nullptr, 0, p);
        goto after_value;
      }
      stack_.push_back('{');
      goto parse_key;
    case '[':
      ++p;
      push(TokenKind::kStartArray, nullptr, 0, p);
      p = skip_ws(p, end);
      if (p == end) return TokenizeStatus::kIncomplete;
      if (*p == ']') {
        ++p;
        push(TokenKind::kEndArray, nullptr, 0, p);
        goto after_value;
      }
      stack_.push_back('[');
      goto parse_value;
    case '"':
      st = scan_string(p, end, TokenKind::kString);
      if (st != TokenizeStatus::kOk) return st;
      goto after_value;
    case 't':
    case 'f':
    case 'n': {
      const char* lit = *p == 't' ? "true" : (*p == 'f' ? "false" : "null");
      const std::size_t n = std::strlen(lit);
      if (static_cast<std::size_t>(end - p) < n) return TokenizeStatus::kIncomplete;
      if (std::memcmp(p, lit, n) != 0) return TokenizeStatus::kInvalid;
      p += n;
      push(*lit == 't' ? TokenKind::kTrue : (*lit == 'f' ? TokenKind::kFalse : TokenKind::kNull),
           nullptr, 0, p);
      goto after_value;
    }
    default:
      st = scan_number(p, end);
      if (st != TokenizeStatus::kOk) return st;
      goto after_value;
  }

parse_key:
  if (*p != '"') return TokenizeStatus::kInvalid;
  st = scan_string(p, end, TokenKind::kKey);
  if (st != TokenizeStatus::kOk) return st;
  p = skip_ws(p, end);
  if (p == end) return TokenizeStatus::kIncomplete;
  if (*p != ':') return TokenizeStatus::kInvalid;
  p = skip_ws(p + 1, end);
  goto parse_value;

after_value:
  if (stack_.empty()) {
    value_end_ = p;
    if (!scratch_.empty()) {  // every escape decodes to at least one byte
      for (Token& t : tokens_) {
        if (t.unescaped) t.text = scratch_.data() + reinterpret_cast<std::uintptr_t>(t.text);
      }
    }
    return TokenizeStatus::kOk;
  }
  p = skip_ws(p, end);
  if (p == end) return TokenizeStatus::kIncomplete;
  if (stack_.back() == '{') {
    if (*p == ',') {
      p = skip_ws(p + 1, end);
      if (p == end) return TokenizeStatus::kIncomplete;
      goto parse_key;
    }
    if (*p == '}') {
      ++p;
      push(TokenKind::kEndObject, nullptr, 0, p);
      stack_.pop_back();
      goto after_value;
    }
    return TokenizeStatus::kInvalid;
  }
  if (*p == ',') {
    p = skip_ws(p + 1, end);
    goto parse_value;
  }
  if (*p == ']') {
    ++p;
    push(TokenKind::kEndArray, nullptr, 0, p);
    stack_.pop_back();
    goto after_value;
  }
  return TokenizeStatus::kInvalid;
}

}  // namespace loupe::core::trace
