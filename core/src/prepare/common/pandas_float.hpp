// pandas' default CSV float parser (the C tokenizer's "high precision" routine), so that
// numbers read back from gpu_timeline.csv are the doubles TraceLens's orchestrator saw. It is
// not correctly rounded: at most 17 significant digits (a leading "0" counts) are folded into
// a double, which is then scaled by a power of ten.
#pragma once

#include <optional>
#include <string_view>

namespace loupe::core::prepare {

std::optional<double> pandas_parse_float(std::string_view text);

}  // namespace loupe::core::prepare
