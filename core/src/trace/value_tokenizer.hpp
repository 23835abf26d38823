// Strict tokenizer for one JSON value held in contiguous memory (the fast path of the trace
// reader, spec §5.2). It accepts exactly what RapidJSON's reader accepts with
// kParseNumbersAsStringsFlag, minus a few rare forms it leaves to RapidJSON (exponents, NaN /
// Infinity, \u surrogates, very long numbers): those, and every syntax error, are reported as
// kInvalid so the caller re-parses the value with RapidJSON for its exact behaviour and message.
// Tokens are then replayed into a SAX handler in the order and at the offsets RapidJSON uses.
#pragma once

#include <cstdint>
#include <vector>

namespace loupe::core::trace {

enum class TokenKind : std::uint8_t {
  kStartObject,
  kEndObject,
  kStartArray,
  kEndArray,
  kKey,
  kString,
  kNumber,
  kTrue,
  kFalse,
  kNull
};

struct Token {
  const char* text = nullptr;   // key / string (unescaped) / number text
  const char* after = nullptr;  // input position just after the token (RapidJSON's Tell)
  std::uint32_t len = 0;
  TokenKind kind = TokenKind::kNull;
  bool unescaped = false;  // text lives in the tokenizer's scratch (offset until fixed up)
};

enum class TokenizeStatus : std::uint8_t {
  kOk,          // one complete, valid value
  kIncomplete,  // the input ends inside the value (more bytes needed)
  kInvalid,     // not valid, or a form left to RapidJSON
};

class ValueTokenizer {
 public:
  // Tokenizes the value starting exactly at `begin` (no leading whitespace).
  TokenizeStatus tokenize(const char* begin, const char* end);
  const std::vector<Token>& tokens() const { return tokens_; }
  // Just after the value (valid after kOk).
  const char* value_end() const { return value_end_; }

 private:
  TokenizeStatus scan_string(const char*& p, const char* end, TokenKind kind);
  TokenizeStatus scan_escaped(const char* start, const char*& p, const char* end, TokenKind kind);
  TokenizeStatus scan_number(const char*& p, const char* end);
  void push(TokenKind kind, const char* text, std::size_t len, const char* after) {
    tokens_.push_back(Token{text, after, static_cast<std::uint32_t>(len), kind, false});
  }

  std::vector<Token> tokens_;
  std::vector<char> scratch_;        // unescaped strings
  std::vector<std::uint8_t> stack_;  // open containers: '{' or '['
  const char* value_end_ = nullptr;
};

// Replays the tokens into a RapidJSON-style SAX handler. `set_offset(after)` is called before
// each handler call with the token's end position. Returns false if the handler stopped.
template <typename Handler, typename SetOffset>
bool replay_tokens(const std::vector<Token>& tokens, Handler& handler, SetOffset&& set_offset) {
  for (const Token& t : tokens) {
    set_offset(t.after);
    bool ok = true;
    switch (t.kind) {
      case TokenKind::kStartObject:
        ok = handler.StartObject();
        break;
      case TokenKind::kEndObject:
        ok = handler.EndObject(0);
        break;
      case TokenKind::kStartArray:
        ok = handler.StartArray();
        break;
      case TokenKind::kEndArray:
        ok = handler.EndArray(0);
        break;
      case TokenKind::kKey:
        ok = handler.Key(t.text, t.len, true);
        break;
      case TokenKind::kString:
        ok = handler.String(t.text, t.len, true);
        break;
      case TokenKind::kNumber:
        ok = handler.RawNumber(t.text, t.len, true);
        break;
      case TokenKind::kTrue:
        ok = handler.Bool(true);
        break;
      case TokenKind::kFalse:
        ok = handler.Bool(false);
        break;
      case TokenKind::kNull:
        ok = handler.Null();
        break;
    }
    if (!ok) return false;
  }
  return true;
}

}  // namespace loupe::core::trace
