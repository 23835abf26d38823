#include "marker_patterns.hpp"

#include "unicode_tables.hpp"
#include "utf8.hpp"

namespace loupe::core::validate_detail {
namespace {

constexpr std::string_view kCommentOpen = "<!--";

bool is_not_space(char32_t cp) { return !is_space_char(cp); }

// `<!--\s*<keyword>` at `begin`; returns the offset after the keyword.
std::optional<std::size_t> match_open_keyword(std::string_view text, std::size_t begin,
                                              std::string_view keyword) {
  const std::size_t keyword_pos = skip_while(text, begin + kCommentOpen.size(), is_space_char);
  if (!literal_at(text, keyword_pos, keyword)) {
    return std::nullopt;
  }
  return keyword_pos + keyword.size();
}

// The first '>' at or after an offset, remembered: the begin markers of one scan are tried at
// increasing offsets, so markers without a '>' of their own share one search and a scan stays
// linear in the text (however many `<!-- impact-begin` lack a closing).
class NextClose {
 public:
  explicit NextClose(std::string_view text) : text_(text) {}
  std::size_t at_or_after(std::size_t from) {
    if (!known_ || (found_ != std::string_view::npos && found_ < from)) {
      found_ = text_.find('>', from);
      known_ = true;
    }
    return found_;
  }

 private:
  std::string_view text_;
  std::size_t found_ = std::string_view::npos;
  bool known_ = false;
};

std::optional<BeginMarkerMatch> match_begin_at(std::string_view text, std::size_t begin,
                                               NextClose& next_close) {
  const auto after_keyword = match_open_keyword(text, begin, "impact-begin");
  if (!after_keyword) {
    return std::nullopt;
  }
  const std::size_t attributes_begin = skip_while(text, *after_keyword, is_space_char);
  if (attributes_begin == *after_keyword) {
    return std::nullopt;  // `\s+` needs at least one character
  }
  // `([^>]*?)-->`: the group cannot contain '>', so the only possible end is the first '>'
  // at or after the group start, and it must be the '>' of "-->". Giving back whitespace
  // from `\s+` cannot change that (the characters before the '>' stay the same).
  const std::size_t close = next_close.at_or_after(attributes_begin);
  if (close == std::string_view::npos || close < attributes_begin + 2 || text[close - 1] != '-' ||
      text[close - 2] != '-') {
    return std::nullopt;
  }
  BeginMarkerMatch match;
  match.begin = begin;
  match.end = close + 1;
  match.attributes = text.substr(attributes_begin, close - 2 - attributes_begin);
  return match;
}

std::optional<std::size_t> match_end_at(std::string_view text, std::size_t begin) {
  const auto after_keyword = match_open_keyword(text, begin, "impact-end");
  if (!after_keyword) {
    return std::nullopt;
  }
  const std::size_t close = skip_while(text, *after_keyword, is_space_char);
  if (!literal_at(text, close, "-->")) {
    return std::nullopt;
  }
  return close + 3;
}

bool word_char_before(std::string_view text, std::size_t pos) {
  return pos > 0 && is_word_char(decode_before(text, pos).code_point);
}

}  // namespace

std::vector<BeginMarkerMatch> find_begin_markers(std::string_view text) {
  std::vector<BeginMarkerMatch> matches;
  NextClose next_close(text);
  std::size_t pos = 0;
  while (true) {
    const std::size_t found = text.find(kCommentOpen, pos);
    if (found == std::string_view::npos) {
      return matches;
    }
    if (const auto match = match_begin_at(text, found, next_close)) {
      pos = match->end;
      matches.push_back(*match);
    } else {
      pos = found + 1;
    }
  }
}

std::size_t count_end_markers(std::string_view text) {
  std::size_t count = 0;
  std::size_t pos = 0;
  while (true) {
    const std::size_t found = text.find(kCommentOpen, pos);
    if (found == std::string_view::npos) {
      return count;
    }
    if (const auto end = match_end_at(text, found)) {
      ++count;
      pos = *end;
    } else {
      pos = found + 1;
    }
  }
}

std::optional<std::string_view> find_kind(std::string_view attributes) {
  constexpr std::string_view kKey = "kind=";
  std::size_t pos = 0;
  while (true) {
    const std::size_t found = attributes.find(kKey, pos);
    if (found == std::string_view::npos) {
      return std::nullopt;
    }
    pos = found + 1;
    if (word_char_before(attributes, found)) {
      continue;  // `\b` before "kind" fails
    }
    const std::size_t value_begin = found + kKey.size();
    const std::size_t value_end = skip_while(attributes, value_begin, is_word_char);
    // The trailing `\b` always holds after a maximal `\w+` run.
    if (value_end > value_begin) {
      return attributes.substr(value_begin, value_end - value_begin);
    }
  }
}

std::vector<std::pair<std::string_view, std::string_view>> find_attributes(
    std::string_view attributes) {
  std::vector<std::pair<std::string_view, std::string_view>> pairs;
  std::size_t pos = 0;
  while (pos < attributes.size()) {
    const DecodedChar decoded = decode_at(attributes, pos);
    if (!is_word_char(decoded.code_point) || word_char_before(attributes, pos)) {
      pos += decoded.length;
      continue;
    }
    // `\b(\w+)=`: a maximal word run (a shorter run would leave a word char before '=').
    const std::size_t key_end = skip_while(attributes, pos, is_word_char);
    if (key_end < attributes.size() && attributes[key_end] == '=') {
      const std::size_t value_begin = key_end + 1;
      const std::size_t value_end = skip_while(attributes, value_begin, is_not_space);
      if (value_end > value_begin) {
        pairs.emplace_back(attributes.substr(pos, key_end - pos),
                           attributes.substr(value_begin, value_end - value_begin));
        pos = value_end;
        continue;
      }
    }
    pos = key_end;  // no `\b` inside the run; the next word start is after it
  }
  return pairs;
}

}  // namespace loupe::core::validate_detail
