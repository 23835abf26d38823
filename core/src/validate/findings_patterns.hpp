#pragma once
// Hand-coded matchers for the findings-structure regexes of spec Appendix A, with Python
// `re` semantics on str (Unicode classes, `^` matching at the start of the searched string).
//   P_HEADING  ^### .*?P(\d+)\s*:                                          (MULTILINE)
//   CANDIDATE  <!-- reasoning-candidate\s+tier=(\w+)\s+rank=(\d+)\s*-->
//   SENTINEL   not quantifiable from trace data                            (IGNORECASE)
// Offsets are byte offsets into the searched string_view.
#include <cstddef>
#include <optional>
#include <string_view>
#include <vector>

namespace loupe::core::validate_detail {

// len(P_HEADING.findall(text)).
std::size_t count_p_headings(std::string_view text);

// len(re.findall(r"^####\s+.*?P(\d+)\s*:", text, re.MULTILINE)): the report's Detailed
// Analysis headings (`\s+` may run over line ends, `.*?` may not).
std::size_t count_detail_headings(std::string_view text);

struct CandidateMatch {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view tier;  // group 1, original case
  std::string_view rank;  // group 2
  std::string_view matched_text(std::string_view text) const {
    return text.substr(begin, end - begin);
  }
};

// CANDIDATE.finditer(text).
std::vector<CandidateMatch> find_candidates(std::string_view text);

// CANDIDATE.search(text).
std::optional<CandidateMatch> search_candidate(std::string_view text);

// SENTINEL.search(text) is not None.
bool contains_sentinel(std::string_view text);

}  // namespace loupe::core::validate_detail
