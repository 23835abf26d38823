// pandas 1.5's default CSV float parser (precise_xstrtod), which is not correctly rounded:
// TraceLens read `Data Moved (MB)` through it, so parity needs the same last bits (Q24).
#pragma once

#include <optional>
#include <string_view>

namespace loupe::core::prepare::fusion {

// The double pandas' C parser yields for `text`; nullopt when it is not a number.
std::optional<double> pandas_parse_float(std::string_view text);

}  // namespace loupe::core::prepare::fusion
