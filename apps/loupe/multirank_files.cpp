#include "multirank_files.hpp"

#include <glob.h>

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string_view>

#include "loupe/core/util/text_escape.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

// Glob text -> regex over a whole path: `**/` any directories (or none), `*` and `?` within one
// path component, `[...]` kept; everything else literal.
std::string glob_to_regex(const std::string& glob) {
  std::string out;
  for (std::size_t i = 0; i < glob.size(); ++i) {
    const char c = glob[i];
    if (c == '*' && i + 1 < glob.size() && glob[i + 1] == '*') {
      const bool slash = i + 2 < glob.size() && glob[i + 2] == '/';
      out += slash ? "(?:.*/)?" : ".*";
      i += slash ? 2 : 1;
    } else if (c == '*') {
      out += "[^/]*";
    } else if (c == '?') {
      out += "[^/]";
    } else if (c == '[') {
      const auto close = glob.find(']', i + 1);
      if (close == std::string::npos) {
        out += "\\[";
      } else {
        std::string set = glob.substr(i + 1, close - i - 1);
        if (!set.empty() && set[0] == '!') set[0] = '^';
        out += "[" + set + "]";
        i = close;
      }
    } else if (std::string_view("\\^$.|+(){}").find(c) != std::string_view::npos) {
      out += '\\';
      out += c;
    } else {
      out += c;
    }
  }
  return out;
}

// Sorted paths matching `pattern`; `**` patterns are walked from their literal prefix.
std::vector<std::string> expand_glob(const std::string& pattern) {
  std::vector<std::string> paths;
  if (pattern.find("**") == std::string::npos) {
    glob_t result{};
    if (::glob(pattern.c_str(), 0, nullptr, &result) == 0) {
      for (std::size_t i = 0; i < result.gl_pathc; ++i) paths.emplace_back(result.gl_pathv[i]);
    }
    ::globfree(&result);
  } else {
    const auto wild = pattern.find_first_of("*?[");
    const auto slash = pattern.rfind('/', wild);
    const std::string root = slash == std::string::npos ? "." : pattern.substr(0, slash + 1);
    const std::string prefix = slash == std::string::npos ? "./" : "";
    const std::regex rx(glob_to_regex(prefix + pattern));
    std::error_code ec;
    for (fs::recursive_directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
      if (!it->is_regular_file(ec)) continue;
      std::string path = it->path().string();
      if (std::regex_match(path, rx)) {
        if (!prefix.empty() && path.rfind(prefix, 0) == 0) path = path.substr(prefix.size());
        paths.push_back(path);
      }
    }
  }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// The regex in ECMAScript form and the index of the group holding the rank: the group named
// `rank` ((?P<rank>...) or (?<rank>...)), else group 1.
std::pair<std::string, std::size_t> rank_group(const std::string& regex) {
  std::string out;
  std::size_t group = 0;
  std::size_t named = 0;
  for (std::size_t i = 0; i < regex.size(); ++i) {
    if (regex[i] == '\\' && i + 1 < regex.size()) {
      out += regex.substr(i, 2);
      ++i;
      continue;
    }
    if (regex[i] == '(') {
      bool renamed = false;
      for (const std::string_view tag : {"(?P<rank>", "(?<rank>"}) {
        if (regex.compare(i, tag.size(), tag) == 0) {
          named = ++group;
          out += '(';
          i += tag.size() - 1;
          renamed = true;
          break;
        }
      }
      if (renamed) continue;
      if (regex.compare(i, 2, "(?") != 0) ++group;
    }
    out += regex[i];
  }
  return {out, named != 0 ? named : 1};
}

// At most this many ranks or ranges are named in one message; the rest are counted.
constexpr std::size_t kListedAtMost = 10;

std::string join(const std::vector<int>& ranks) {
  std::string out;
  for (std::size_t i = 0; i < ranks.size() && i < kListedAtMost; ++i) {
    out += (out.empty() ? "" : ", ") + std::to_string(ranks[i]);
  }
  if (ranks.size() > kListedAtMost) {
    out += " and " + std::to_string(ranks.size() - kListedAtMost) + " more";
  }
  return out;
}

// The ranks below `world` that hold no file, as ranges ("2", "5-9"), the first kListedAtMost of
// them, then how many ranks are missing in all. Walks the found ranks, never the world.
std::string missing_ranks(const std::map<int, std::vector<std::string>>& by_rank, int world) {
  std::string out;
  std::size_t ranges = 0;
  const auto add = [&](int from, int to) {
    if (from > to) return;
    if (++ranges > kListedAtMost) return;
    out += (out.empty() ? "" : ", ") + std::to_string(from) +
           (to > from ? "-" + std::to_string(to) : std::string());
  };
  int next = 0;
  for (const auto& [rank, paths] : by_rank) {
    add(next, rank - 1);
    next = rank + 1;
  }
  add(next, world - 1);
  if (ranges > kListedAtMost) {
    const auto missing = static_cast<long long>(world) - static_cast<long long>(by_rank.size());
    out += ", ... (" + std::to_string(missing) + " ranks missing in all, in " +
           std::to_string(ranges) + " ranges)";
  }
  return out;
}

}  // namespace

RankNumber parse_rank_number(std::string_view text) {
  RankNumber result;
  const auto shown = [&] {
    return "'" + core::escape_for_terminal(text.substr(0, 24)) + (text.size() > 24 ? "...'" : "'");
  };
  if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
    result.error = "the rank in the file name, " + shown() + ", is not a decimal number";
    return result;
  }
  // Leading zeros aside, a rank below kMaxWorldSize has at most 6 digits: longer text is
  // refused before it is converted, so no value of any length can overflow.
  const std::string_view digits = text.substr(std::min(text.find_first_not_of('0'), text.size()));
  long long value = 0;
  if (digits.size() <= 7) {
    for (const char c : digits) value = value * 10 + (c - '0');
  }
  if (digits.size() > 7 || value >= kMaxWorldSize) {
    result.error = "rank " + shown() + " is too large: ranks must be below " +
                   std::to_string(kMaxWorldSize) + " (the largest world size Loupe accepts)";
    return result;
  }
  result.rank = static_cast<int>(value);
  return result;
}

RankFiles resolve_rank_files(const RankFileRequest& request) {
  RankFiles result;
  std::string pattern;
  std::string rank_regex = request.rank_regex;
  if (request.pattern) {
    pattern = *request.pattern;
    const auto star = pattern.find('*');
    if (star == std::string::npos || pattern.find('*', star + 1) != std::string::npos) {
      result.error = "--trace-pattern must hold exactly one '*' (it stands for the rank)";
      return result;
    }
    // The star's text, anchored by what surrounds it in the file name.
    const std::string name = fs::path(pattern).filename().string();
    const auto name_star = name.find('*');
    const auto literal = [](const std::string& text) {
      std::string out;
      for (const char c : text) {
        if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) out += '\\';
        out += c;
      }
      return out;
    };
    rank_regex = "^" + literal(name.substr(0, name_star)) + "(\\d+)" +
                 literal(name.substr(name_star + 1)) + "$";
  } else {
    pattern = *request.glob;
  }
  const std::vector<std::string> matches = expand_glob(pattern);
  if (matches.empty()) {
    result.error = "no file matches " + pattern;
    return result;
  }
  std::regex rx;
  std::size_t group = 1;
  try {
    const auto [ecma, index] = rank_group(rank_regex);
    rx = std::regex(ecma);
    group = index;
  } catch (const std::regex_error& e) {
    result.error = "--rank-regex " + rank_regex + ": not a valid regular expression";
    return result;
  }
  std::map<int, std::vector<std::string>> by_rank;
  std::vector<std::string> unmatched;
  for (const std::string& path : matches) {
    std::smatch m;
    const std::string name = fs::path(path).filename().string();
    const bool found = std::regex_search(name, m, rx) || std::regex_search(path, m, rx);
    if (!found || group >= m.size() || !m[group].matched) {
      unmatched.push_back(path);
      continue;
    }
    const RankNumber rank = parse_rank_number(m[group].str());
    if (!rank.error.empty()) {
      result.error = path + ": " + rank.error;
      return result;
    }
    by_rank[rank.rank].push_back(path);
  }
  if (by_rank.empty()) {
    result.error = std::to_string(matches.size()) + " file(s) match " + pattern +
                   " but none names a rank (rank regex " + rank_regex + ")";
    return result;
  }
  for (const auto& [rank, paths] : by_rank) {
    if (paths.size() > 1) {
      result.error = "rank " + std::to_string(rank) + " has " + std::to_string(paths.size()) +
                     " files: " + paths[0] + " and " + paths[1] +
                     (paths.size() > 2 ? " (and more)" : "");
      return result;
    }
  }
  const int world = request.world_size.value_or(by_rank.rbegin()->first + 1);
  std::vector<int> outside;
  for (const auto& [rank, paths] : by_rank) {
    if (rank >= world) outside.push_back(rank);
  }
  if (!outside.empty()) {
    result.error = "rank(s) " + join(outside) + " (" + by_rank[outside.front()].front() +
                   ") outside --world-size " + std::to_string(world);
    return result;
  }
  if (by_rank.size() < static_cast<std::size_t>(world)) {
    result.error = "no trace for rank(s) " + missing_ranks(by_rank, world) + " of world size " +
                   std::to_string(world) + " (files matching " + pattern + ")";
    return result;
  }
  for (int r = 0; r < world; ++r) result.by_rank.emplace_back(by_rank[r].front());
  return result;
}

}  // namespace loupe::cli
