#pragma once
// Helpers shared by the prepare parity tests.
#include <string>

#include "loupe/core/prepare/perf_model.hpp"

namespace loupe::test {

// The bundled MI300X spec as the perf models take it (TraceLens's reports used MI300X).
core::prepare::perf::Arch mi300x_arch();

// Where two CSV texts first differ: the first differing cell (columns matched by name), a
// row-count or column-set difference, or "bytes differ" when only quoting/order differs.
std::string first_csv_difference(const std::string& ours, const std::string& theirs);

}  // namespace loupe::test
