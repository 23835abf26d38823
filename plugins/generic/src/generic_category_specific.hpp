// The category_specific block of an uncategorized-operations category: sub-category counts, the
// peaks, and (category "other" only) the communication operations left to the collective
// analysis.
//  - TraceLens mode: communication_count is always 0 and communication rows of categories other
//    than "other" count as miscellaneous.
//  - Corrected mode (docs/deviations.md G1): communication_count counts the communication rows,
//    skipped or kept.
#pragma once

#include <cstddef>
#include <string>

#include "loupe/compute/category_inputs.hpp"
#include "loupe/json_value.hpp"

namespace loupe::generic {

// True when this row is analyzed: category "other" leaves its communication rows out.
bool keeps_row(const compute::CategoryInputs& inputs, size_t row);

Json generic_category_specific(const compute::CategoryInputs& inputs, bool tracelens_compat);

}  // namespace loupe::generic
