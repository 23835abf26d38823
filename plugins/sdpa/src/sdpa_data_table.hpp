// The analyzer prompt's Data-table extension for paged attention: when a finding's table lists a
// paged-attention operation, three columns follow the standard ones: its dominant
// kernel-breakdown component (with its share), the workload type and the attention pattern.
#pragma once

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::sdpa {

void add_paged_attention_columns(findings::Document& doc, const Json& metrics);

}  // namespace loupe::sdpa
