#pragma once
// F-9 … F-13 (spec §2.1): compute-tier reasoning-candidate blocks need a `**Data:**` table
// with the canonical header, and their Args / Kernel Path / Kernel Name cells must be
// verbatim copies of values in the metrics JSON.
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/validate/validator.hpp"
#include "metrics_fixture.hpp"

namespace loupe::core::validate_detail {

struct DataTableOptions {
  Scope scope = Scope::Standalone;
  std::string metrics_name;  // `<stem>_metrics.json`, as printed in F-11 … F-13
  // Loupe default mode: an em dash as the whole Args / Kernel Path cell is an absent value.
  bool em_dash_means_absent = false;
};

void check_compute_data_tables(std::string_view text, const MetricsFixture& metrics,
                               const DataTableOptions& options, std::vector<std::string>& errors);

}  // namespace loupe::core::validate_detail
