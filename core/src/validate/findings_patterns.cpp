#include "findings_patterns.hpp"

#include "unicode_tables.hpp"
#include "utf8.hpp"

namespace loupe::core::validate_detail {
namespace {

constexpr std::string_view kPHeadingPrefix = "### ";
constexpr std::string_view kCandidatePrefix = "<!-- reasoning-candidate";
constexpr std::string_view kSentinel = "not quantifiable from trace data";

// `P(\d+)\s*:` at `pos`; returns the match end. Backtracking never helps here: fewer digits
// leave a digit where `\s` or `:` is needed, fewer spaces leave a space where `:` is needed.
std::optional<std::size_t> match_p_number_colon(std::string_view text, std::size_t pos) {
  if (pos >= text.size() || text[pos] != 'P') {
    return std::nullopt;
  }
  const std::size_t digits_end = skip_while(text, pos + 1, is_decimal_digit);
  if (digits_end == pos + 1) {
    return std::nullopt;
  }
  const std::size_t spaces_end = skip_while(text, digits_end, is_space_char);
  if (spaces_end < text.size() && text[spaces_end] == ':') {
    return spaces_end + 1;
  }
  return std::nullopt;
}

// P_HEADING anchored at a line start.
std::optional<std::size_t> match_p_heading_at(std::string_view text, std::size_t line_start) {
  if (!literal_at(text, line_start, kPHeadingPrefix)) {
    return std::nullopt;
  }
  std::size_t pos = line_start + kPHeadingPrefix.size();
  while (pos < text.size()) {  // lazy `.*?`: `.` never crosses '\n'
    if (const auto end = match_p_number_colon(text, pos)) {
      return end;
    }
    if (text[pos] == '\n') {
      break;
    }
    pos += decode_at(text, pos).length;
  }
  return std::nullopt;
}

std::optional<CandidateMatch> match_candidate_at(std::string_view text, std::size_t begin) {
  std::size_t pos = begin + kCandidatePrefix.size();
  const std::size_t spaces1_end = skip_while(text, pos, is_space_char);
  if (spaces1_end == pos || !literal_at(text, spaces1_end, "tier=")) {
    return std::nullopt;
  }
  const std::size_t tier_begin = spaces1_end + 5;
  const std::size_t tier_end = skip_while(text, tier_begin, is_word_char);
  if (tier_end == tier_begin) {
    return std::nullopt;
  }
  const std::size_t spaces2_end = skip_while(text, tier_end, is_space_char);
  if (spaces2_end == tier_end || !literal_at(text, spaces2_end, "rank=")) {
    return std::nullopt;
  }
  const std::size_t rank_begin = spaces2_end + 5;
  const std::size_t rank_end = skip_while(text, rank_begin, is_decimal_digit);
  if (rank_end == rank_begin) {
    return std::nullopt;
  }
  pos = skip_while(text, rank_end, is_space_char);
  if (!literal_at(text, pos, "-->")) {
    return std::nullopt;
  }
  CandidateMatch match;
  match.begin = begin;
  match.end = pos + 3;
  match.tier = text.substr(tier_begin, tier_end - tier_begin);
  match.rank = text.substr(rank_begin, rank_end - rank_begin);
  return match;
}

// Case-insensitive comparison of one pattern letter as Python `re.IGNORECASE` does it:
// ASCII case folding, plus U+0130 and U+0131 for 'i' (the only extra equivalents for the
// letters of the sentinel).
bool matches_ignore_case(char32_t cp, char pattern_char) {
  if (pattern_char == ' ') {
    return cp == U' ';
  }
  const auto lowered = static_cast<char32_t>(pattern_char);
  if (cp == lowered || cp == lowered - (U'a' - U'A')) {
    return true;
  }
  return pattern_char == 'i' && (cp == 0x130 || cp == 0x131);
}

bool sentinel_at(std::string_view text, std::size_t pos) {
  for (const char pattern_char : kSentinel) {
    if (pos >= text.size()) {
      return false;
    }
    const DecodedChar decoded = decode_at(text, pos);
    if (!matches_ignore_case(decoded.code_point, pattern_char)) {
      return false;
    }
    pos += decoded.length;
  }
  return true;
}

}  // namespace

std::size_t count_p_headings(std::string_view text) {
  std::size_t count = 0;
  std::size_t line_start = 0;
  while (line_start <= text.size()) {
    std::size_t next_search = line_start;
    if (const auto end = match_p_heading_at(text, line_start)) {
      ++count;
      next_search = *end;
    }
    // Next position where `^` can match: just after a '\n' at or after next_search - 1.
    // A match always ends with ':', so the first candidate is the next '\n' + 1.
    const std::size_t newline = text.find('\n', next_search);
    if (newline == std::string_view::npos) {
      break;
    }
    line_start = newline + 1;
  }
  return count;
}

std::size_t count_detail_headings(std::string_view text) {
  std::size_t count = 0;
  std::size_t line_start = 0;
  while (line_start <= text.size()) {
    std::size_t next_search = line_start;
    if (literal_at(text, line_start, "####")) {
      const std::size_t ws_begin = line_start + 4;
      const std::size_t ws_end = skip_while(text, ws_begin, is_space_char);
      if (ws_end > ws_begin) {
        // Only the line where the whitespace run ends can hold `.*?P<N>:`.
        for (std::size_t pos = ws_end; pos < text.size() && text[pos] != '\n';
             pos += decode_at(text, pos).length) {
          if (const auto end = match_p_number_colon(text, pos)) {
            ++count;
            next_search = *end;
            break;
          }
        }
      }
    }
    const std::size_t newline = text.find('\n', next_search);
    if (newline == std::string_view::npos) {
      break;
    }
    line_start = newline + 1;
  }
  return count;
}

std::vector<CandidateMatch> find_candidates(std::string_view text) {
  std::vector<CandidateMatch> matches;
  std::size_t pos = 0;
  while (true) {
    const std::size_t found = text.find(kCandidatePrefix, pos);
    if (found == std::string_view::npos) {
      return matches;
    }
    if (auto match = match_candidate_at(text, found)) {
      pos = match->end;
      matches.push_back(*match);
    } else {
      pos = found + 1;
    }
  }
}

std::optional<CandidateMatch> search_candidate(std::string_view text) {
  std::size_t pos = 0;
  while (true) {
    const std::size_t found = text.find(kCandidatePrefix, pos);
    if (found == std::string_view::npos) {
      return std::nullopt;
    }
    if (auto match = match_candidate_at(text, found)) {
      return match;
    }
    pos = found + 1;
  }
}

bool contains_sentinel(std::string_view text) {
  for (std::size_t pos = 0; pos < text.size(); ++pos) {
    if ((text[pos] == 'n' || text[pos] == 'N') && sentinel_at(text, pos)) {
      return true;
    }
  }
  return false;
}

}  // namespace loupe::core::validate_detail
