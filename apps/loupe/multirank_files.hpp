// `loupe analyze --trace-glob / --trace-pattern`: which trace file is which rank
// (docs/multirank.md, "How ranks are matched").
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace loupe::cli {

// TraceLens's default: "rank" then an optional separator, the rank's digits in group `rank`.
inline constexpr const char* kDefaultRankRegex = R"(rank[\[\-_/]?(?P<rank>\d+))";

struct RankFileRequest {
  std::optional<std::string> glob;     // --trace-glob (`**` crosses directories)
  std::optional<std::string> pattern;  // --trace-pattern: one `*` stands for the rank
  std::string rank_regex = kDefaultRankRegex;
  std::optional<int> world_size;
};

// One path per rank 0..world_size-1, or the reason the set is refused (no file matched, a
// rank missing, two files for one rank, a rank outside the world size, a bad regex), naming
// the ranks and files concerned.
struct RankFiles {
  std::vector<std::filesystem::path> by_rank;
  std::string error;
};
RankFiles resolve_rank_files(const RankFileRequest& request);

}  // namespace loupe::cli
