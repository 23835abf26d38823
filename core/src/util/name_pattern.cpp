#include "loupe/core/util/name_pattern.hpp"

namespace loupe::core {

namespace {

bool is_regex_only(char c) {
  return c == '(' || c == ')' || c == '+' || c == '{' || c == '}' || c == '^' || c == '$';
}

std::string at(std::size_t offset) { return " at offset " + std::to_string(offset); }

}  // namespace

NamePattern NamePattern::compile(std::string_view text, std::string& error) {
  NamePattern pattern;
  error.clear();
  if (text.empty()) {
    error = "empty pattern (leave the field NULL to match every name)";
    return {};
  }
  if (text.size() > kMaxNamePatternLength) {
    error = "pattern of " + std::to_string(text.size()) + " characters (at most " +
            std::to_string(kMaxNamePatternLength) + ")";
    return {};
  }
  pattern.text_ = std::string(text);
  Alternative current;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x20 || byte == 0x7f) {
      error = "control character" + at(i);
      return {};
    }
    Token token;
    if (c == '|') {
      if (current.empty()) {
        error = "empty alternative before '|'" + at(i);
        return {};
      }
      pattern.alternatives_.push_back(std::move(current));
      current.clear();
      continue;
    }
    if (c == '*') {
      // `**` is `*`: one star token keeps the match linear.
      if (current.empty() || current.back().kind != Kind::Star) {
        token.kind = Kind::Star;
        current.push_back(token);
      }
      continue;
    }
    if (c == '?') {
      token.kind = Kind::Any;
    } else if (c == '\\') {
      if (i + 1 == text.size()) {
        error = "'\\' at the end escapes nothing" + at(i);
        return {};
      }
      token.literal = text[++i];
    } else if (c == '[') {
      const std::size_t open = i;
      std::size_t j = i + 1;
      const bool negated = j < text.size() && (text[j] == '!' || text[j] == '^');
      if (negated) ++j;
      std::bitset<256> set;
      bool first = true;
      for (; j < text.size() && (text[j] != ']' || first); ++j) {
        first = false;
        unsigned char lo = static_cast<unsigned char>(text[j]);
        if (text[j] == '\\' && j + 1 < text.size()) lo = static_cast<unsigned char>(text[++j]);
        unsigned char hi = lo;
        if (j + 2 < text.size() && text[j + 1] == '-' && text[j + 2] != ']') {
          hi = static_cast<unsigned char>(text[j + 2]);
          j += 2;
          if (hi < lo) {
            error = "reversed range in '['" + at(open);
            return {};
          }
        }
        for (unsigned v = lo; v <= hi; ++v) set.set(v);
      }
      if (j >= text.size()) {
        error = "'[' without a closing ']'" + at(open);
        return {};
      }
      token.kind = Kind::Set;
      token.set = negated ? ~set : set;
      i = j;
    } else if (is_regex_only(c)) {
      error = std::string("regex construct '") + c + "'" + at(i) +
              " is not part of the selector syntax (glob: * ? [...] |; write \\" + c +
              " to match the character)";
      return {};
    } else {
      token.literal = c;
    }
    current.push_back(token);
  }
  if (current.empty()) {
    error = "empty alternative after '|'";
    return {};
  }
  pattern.alternatives_.push_back(std::move(current));
  return pattern;
}

// Glob matching with one resume point: on a mismatch after a star, the star takes one more
// character and the rest is tried again. Each star only moves forward, so the work is at most
// (name length) x (tokens), never exponential.
bool NamePattern::match_one(const Alternative& tokens, std::string_view name) {
  std::size_t t = 0;
  std::size_t n = 0;
  std::size_t star_t = tokens.size();  // none yet
  std::size_t star_n = 0;
  auto single = [&](const Token& token, char c) {
    switch (token.kind) {
      case Kind::Literal:
        return token.literal == c;
      case Kind::Any:
        return true;
      case Kind::Set:
        return token.set.test(static_cast<unsigned char>(c));
      case Kind::Star:
        return false;
    }
    return false;
  };
  while (n < name.size()) {
    if (t < tokens.size() && tokens[t].kind == Kind::Star) {
      star_t = t++;
      star_n = n;
    } else if (t < tokens.size() && single(tokens[t], name[n])) {
      ++t;
      ++n;
    } else if (star_t != tokens.size()) {
      t = star_t + 1;
      n = ++star_n;
    } else {
      return false;
    }
  }
  while (t < tokens.size() && tokens[t].kind == Kind::Star) ++t;
  return t == tokens.size();
}

bool NamePattern::matches(std::string_view name) const {
  for (const auto& alternative : alternatives_) {
    if (match_one(alternative, name)) return true;
  }
  return false;
}

}  // namespace loupe::core
