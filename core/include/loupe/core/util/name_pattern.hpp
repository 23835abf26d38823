// Kernel- and op-name patterns of vendor category selectors (docs/plugin-abi.md, "Vendor
// categories"): a glob subset matched in time linear in the name for each pattern character, so
// no pattern a plugin declares can make the host backtrack exponentially.
//
// Syntax: `*` any run of characters (also none), `?` one character, `[abc]` / `[a-z]` one of a
// set (`[!...]` or `[^...]`: not in it), `\c` the character c itself, `|` between alternatives.
// A pattern matches the whole name, case-sensitively. Regex constructs with no glob meaning
// (`(` `)` `+` `{` `}` `^` `$` outside a set) are refused rather than taken literally, so a regex
// written by mistake fails loudly instead of matching nothing; escape them (`\(`) to match them.
#pragma once

#include <bitset>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::core {

inline constexpr std::size_t kMaxNamePatternLength = 256;

class NamePattern {
 public:
  // The pattern, or "" in `error` with what is wrong (naming the offending character's offset).
  static NamePattern compile(std::string_view text, std::string& error);

  bool matches(std::string_view name) const;
  const std::string& text() const { return text_; }
  bool empty() const { return alternatives_.empty(); }

 private:
  enum class Kind : unsigned char { Literal, Any, Set, Star };
  struct Token {
    Kind kind = Kind::Literal;
    char literal = 0;
    std::bitset<256> set;  // Kind::Set, negation already applied
  };
  using Alternative = std::vector<Token>;
  static bool match_one(const Alternative& tokens, std::string_view name);

  std::string text_;
  std::vector<Alternative> alternatives_;
};

}  // namespace loupe::core
