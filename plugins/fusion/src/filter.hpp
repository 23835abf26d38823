// _filter_and_dedup (spec §3.3): kernel-count cap, 2%-of-E2E time floor, signature dedup.
#pragma once

#include <vector>

#include "candidate.hpp"

namespace loupe::fusion {

std::vector<Candidate> filter_and_dedup(const std::vector<Candidate>& candidates,
                                        double baseline_ms);

// len() of a Python str: Unicode code points of the UTF-8 text.
std::size_t code_point_length(const std::string& utf8);

}  // namespace loupe::fusion
