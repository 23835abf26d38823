#pragma once
// Hand-coded matchers for the impact-marker regexes of spec Appendix A (Python `re` on str):
//   BEGIN      <!--\s*impact-begin\s+([^>]*?)-->          (DOTALL)
//   END        <!--\s*impact-end\s*-->
//   KIND_ATTR  \bkind=(\w+)\b                              (first match)
//   ATTR       \b(\w+)=([^\s]+)                            (findall)
#include <cstddef>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

namespace loupe::core::validate_detail {

struct BeginMarkerMatch {
  std::size_t begin = 0;
  std::size_t end = 0;
  std::string_view attributes;  // group 1 (raw attribute text)
};

// BEGIN.finditer(text).
std::vector<BeginMarkerMatch> find_begin_markers(std::string_view text);

// len(END.findall(text)).
std::size_t count_end_markers(std::string_view text);

// KIND_ATTR.search(attributes).group(1), if any.
std::optional<std::string_view> find_kind(std::string_view attributes);

// ATTR.findall(attributes): (key, value) pairs in order.
std::vector<std::pair<std::string_view, std::string_view>> find_attributes(
    std::string_view attributes);

}  // namespace loupe::core::validate_detail
