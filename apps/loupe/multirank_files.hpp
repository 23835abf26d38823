// `loupe analyze --trace-glob / --trace-pattern`: which trace file is which rank
// (docs/multirank.md, "How ranks are matched").
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::cli {

// TraceLens's default: "rank" then an optional separator, the rank's digits in group `rank`.
inline constexpr const char* kDefaultRankRegex = R"(rank[\[\-_/]?(?P<rank>\d+))";

// The largest world size Loupe accepts (and so every rank is below it): far beyond any job run
// today, and small enough that every per-rank table and message stays bounded.
inline constexpr int kMaxWorldSize = 1'000'000;

// The one rule for a rank number read from a file name (docs/multirank.md, "How ranks are
// matched"): ASCII decimal digits only (leading zeros allowed), below kMaxWorldSize. `error`
// says why the text is not one (it quotes at most the first 24 characters).
struct RankNumber {
  int rank = -1;
  std::string error;
};
RankNumber parse_rank_number(std::string_view text);

struct RankFileRequest {
  std::optional<std::string> glob;     // --trace-glob (`**` crosses directories)
  std::optional<std::string> pattern;  // --trace-pattern: one `*` stands for the rank
  std::string rank_regex = kDefaultRankRegex;
  std::optional<int> world_size;
};

// One path per rank 0..world_size-1, or the reason the set is refused (no file matched, a
// rank missing, two files for one rank, a rank outside the world size, a rank number that is
// not one or is too large, a bad regex), naming the ranks and files concerned. Lists of ranks in
// the message are summarized as ranges and capped, so its length is bounded.
struct RankFiles {
  std::vector<std::filesystem::path> by_rank;
  std::string error;
};
RankFiles resolve_rank_files(const RankFileRequest& request);

}  // namespace loupe::cli
