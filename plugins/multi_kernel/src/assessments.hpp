// The three assessments of the analysis step (spec §4.3–§4.5) and the cross-validation
// (§4.6). Each returns its metrics JSON plus the typed facts the findings need.
// `corrected` selects Loupe's default mode (docs/deviations.md); false is the
// TraceLens-compatible behaviour.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loupe/json_value.hpp"
#include "py_number.hpp"
#include "timeline.hpp"

namespace loupe::multi_kernel {

inline constexpr double kMemcpyShareThreshold = 5.0;       // percent, strict >
inline constexpr std::int64_t kMemcpyCountThreshold = 10;  // transfers, strict >
inline constexpr double kCountRuleMinShare = 1.0;          // corrected mode only, strict >
inline constexpr double kExposedCommThreshold = 5.0;       // percent, strict >
inline constexpr double kMinCommForOverlapUs = 100.0;      // below: not graded
inline constexpr double kOverlapTarget = 0.7;              // ratio, strict <
inline constexpr double kOverlapTargetPercent = 70.0;      // the same target, for display
inline constexpr double kCrossValidationTolerance = 2.0;   // percent, inclusive
// Default mode: a host<->device direction over 1 % of the GPU time is also flagged when its copies
// reach less than this share of the host link's peak (docs/deviations.md, M9).
inline constexpr double kSlowLinkPercent = 50.0;  // percent, strict <
// The rate a pinned, well-sized copy reaches on the link, for the card's saving.
inline constexpr double kPinnedLinkShare = 0.8;

// One memcpy direction of multi_kernel_data.json (absent directions have count 0).
struct DirectionStats {
  std::string direction;  // D2H, H2D, D2D, other
  bool present = false;
  PyNumber count;
  PyNumber total_time_us;
  Json avg_bytes = Json(0);
  double total_bytes = 0.0;  // 0 when the summary does not say
};

struct MemcpyIssue {
  std::string direction;
  PyNumber count;
  double time_ms = 0.0;
  double percent = 0.0;
  bool by_time_share = false;
  bool by_count = false;
  bool by_link = false;  // default mode: slow against the host link
  double bytes = 0.0;
  std::optional<double> achieved_gbps;  // default mode, H2D/D2H with bytes and a known link
  std::optional<double> link_gbps;
  std::string description;
};

struct MemcpyAssessment {
  bool evaluated = false;  // false: no usable total GPU time
  bool flagged = false;
  double denominator_ms = 0.0;
  std::vector<DirectionStats> directions;  // D2H, H2D, D2D, other
  std::vector<MemcpyIssue> issues;
  PyNumber total_count;
  double total_ms = 0.0;
  double percent = 0.0;
  Json json;
};

// All four directions of memcpy_summary.by_direction, in the fixed order.
std::vector<DirectionStats> read_directions(const Json& memcpy_summary);

// `host_link_gbps`: the host link's peak per direction (default mode; nullopt: not judged).
MemcpyAssessment assess_memcpy(const Json& memcpy_summary, PyNumber total_time_ms, bool corrected,
                               std::optional<double> host_link_gbps = std::nullopt);

struct BlockingAssessment {
  bool evaluated = false;  // false: no communication time
  bool flagged = false;
  double exposed_ms = 0.0;
  double total_comm_ms = 0.0;
  double percent = 0.0;
  Json json;
};
BlockingAssessment assess_blocking(const Json& overlap, bool corrected);

struct OverlapAssessment {
  bool evaluated = false;  // false: under 100 µs of communication or no ratio
  bool flagged = false;
  double ratio = 0.0;
  Json json;
};
OverlapAssessment assess_overlap(const Json& overlap, bool corrected);

struct CrossValidation {
  bool performed = false;  // false: the CSV could not be read (JSON null)
  std::string status;      // PASS | WARN
  int warn_count = 0;
  int skip_count = 0;
  Json json;
};
CrossValidation cross_validate(const Json& overlap, const Timeline& timeline);

}  // namespace loupe::multi_kernel
