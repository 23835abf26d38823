#pragma once
// M-1 … M-9 (spec §2.2): impact-marker structure (MarkerValidator.scan) and the Level-1
// findings-file requirements (check_findings_file).
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::core::validate_detail {

struct MarkerCheckOptions {
  std::string file_name;  // `rel`: basename of the findings file
  // M-6 / M-7: at least one kind=p_item marker. TraceLens waives it only for the compute
  // tier in relaxed-empty mode; Loupe's default mode also for honest-empty system/fusion files.
  bool p_item_required = true;
};

// M-1 … M-5 (MarkerValidator.scan): pairing, kind= present and known, required attributes,
// no null mixed with numbers. Returns the kinds seen.
std::set<std::string> scan_markers(std::string_view text, const std::string& file_name,
                                   std::vector<std::string>& errors);

void check_markers(std::string_view text, const MarkerCheckOptions& options,
                   std::vector<std::string>& errors);

}  // namespace loupe::core::validate_detail
