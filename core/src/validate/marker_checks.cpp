#include "marker_checks.hpp"

#include <map>
#include <set>

#include "findings_patterns.hpp"
#include "marker_patterns.hpp"
#include "python_text.hpp"

namespace loupe::core::validate_detail {
namespace {

constexpr std::string_view kPItem = "p_item";
constexpr std::string_view kDetailEstimate = "detail_estimate";
constexpr std::string_view kTopOps = "top_ops";

std::vector<std::string_view> required_attributes(std::string_view kind) {
  if (kind == kPItem) {
    return {"low", "mid", "high"};
  }
  if (kind == kDetailEstimate) {
    return {"low", "high"};
  }
  return {};
}

bool is_known_kind(std::string_view kind) {
  return kind == kPItem || kind == kDetailEstimate || kind == kTopOps;
}

class MarkerScan {
 public:
  MarkerScan(const MarkerCheckOptions& options, std::vector<std::string>& errors)
      : prefix_(options.file_name + ": "), errors_(errors) {}

  void error(const std::string& message) { errors_.push_back(prefix_ + message); }

  // M-2 … M-5 for one begin marker.
  void check_begin_marker(std::string_view attributes) {
    const auto kind = find_kind(attributes);
    if (!kind) {
      error("impact-begin missing kind= attribute: " + std::string(strip(attributes)));
      return;
    }
    const std::string kind_text(*kind);
    if (!is_known_kind(*kind)) {
      error("unknown kind=" + kind_text);
      return;
    }
    std::map<std::string_view, std::string_view> values;  // last value wins
    for (const auto& [key, value] : find_attributes(attributes)) {
      values[key] = value;
    }
    for (const std::string_view attribute : required_attributes(*kind)) {
      if (!values.contains(attribute)) {
        error("kind=" + kind_text + " missing required attr " + std::string(attribute));
      }
    }
    std::size_t present = 0;
    std::size_t nulls = 0;
    for (const std::string_view attribute : {"low", "mid", "high"}) {
      if (const auto it = values.find(attribute); it != values.end()) {
        ++present;
        nulls += it->second == "null" ? 1U : 0U;
      }
    }
    if (nulls > 0 && nulls < present) {
      error("kind=" + kind_text + " mixes null and numeric values in low/mid/high");
    }
  }

 private:
  std::string prefix_;
  std::vector<std::string>& errors_;
};

bool has_detail_estimate(std::string_view scope) {
  for (const BeginMarkerMatch& marker : find_begin_markers(scope)) {
    if (find_kind(marker.attributes) == kDetailEstimate) {
      return true;
    }
  }
  return contains_sentinel(scope);
}

}  // namespace

std::set<std::string> scan_markers(std::string_view text, const std::string& file_name,
                                   std::vector<std::string>& errors) {
  MarkerCheckOptions options;
  options.file_name = file_name;
  MarkerScan scan(options, errors);
  const std::vector<BeginMarkerMatch> begins = find_begin_markers(text);
  const std::size_t end_count = count_end_markers(text);
  if (begins.size() != end_count) {  // M-1
    scan.error("marker pairing mismatch (" + std::to_string(begins.size()) + " begin vs " +
               std::to_string(end_count) + " end)");
  }
  std::set<std::string> seen_kinds;
  for (const BeginMarkerMatch& marker : begins) {
    if (const auto kind = find_kind(marker.attributes)) {
      seen_kinds.emplace(*kind);
    }
    scan.check_begin_marker(marker.attributes);  // M-2 … M-5
  }
  return seen_kinds;
}

void check_markers(std::string_view text, const MarkerCheckOptions& options,
                   std::vector<std::string>& errors) {
  MarkerScan scan(options, errors);
  const std::set<std::string> seen_kinds = scan_markers(text, options.file_name, errors);
  std::size_t p_item_markers = 0;
  for (const BeginMarkerMatch& marker : find_begin_markers(text)) {
    p_item_markers += find_kind(marker.attributes) == kPItem ? 1U : 0U;
  }

  if (options.p_item_required && !seen_kinds.contains(std::string(kPItem))) {  // M-6 / M-7
    scan.error("missing required kind=p_item");
  }

  const std::size_t heading_count = count_p_headings(text);  // M-8
  if (heading_count > 0 && p_item_markers > 0 && heading_count != p_item_markers) {
    scan.error(std::to_string(heading_count) + " ### P<N>: headings but " +
               std::to_string(p_item_markers) + " kind=p_item markers");
  }

  const std::vector<CandidateMatch> candidates = find_candidates(text);  // M-9
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::size_t scope_end = i + 1 < candidates.size() ? candidates[i + 1].begin : text.size();
    const std::string_view scope = text.substr(candidates[i].end, scope_end - candidates[i].end);
    if (!has_detail_estimate(scope)) {
      // TraceLens prints the captured tier where the message says rank.
      scan.error("reasoning-candidate rank=" + std::string(candidates[i].tier) +
                 " missing kind=detail_estimate marker or 'not quantifiable from trace data'"
                 " sentinel");
    }
  }
}

}  // namespace loupe::core::validate_detail
