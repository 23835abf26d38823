// Default-mode savings of the attention findings (docs/deviations.md A4): flash and standard
// attention are judged against the efficiency they are expected to reach at their sequence
// length (low / mid / high = the band's bottom, middle and top; expected_band), not against the
// full roofline, so a short sequence inside its band claims little or nothing. Paged attention
// and ops without a known sequence length keep the roofline model (75 / 87.5 / 100 % of the gap).
// Writes estimated_savings_ms_low / _mid / _high and saving_basis per finding, recomputes the
// impact scores from the savings and re-ranks.
#pragma once

#include "loupe/json_value.hpp"

namespace loupe::sdpa {

void apply_expected_band_savings(Json& metrics, double e2e_ms);

}  // namespace loupe::sdpa
