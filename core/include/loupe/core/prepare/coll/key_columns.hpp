// How pandas treats the values of one DataFrame column built from trace args (json.loads
// values): the dtype it infers, how a cell prints in to_csv, and how groupby orders and
// matches keys.
#pragma once

#include <vector>

#include "loupe/core/prepare/pandas_csv.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::coll {

// Missing in pandas' eyes: None (absent key or JSON null) or a float NaN.
bool is_missing(const Json& value);

// DataFrame(list of dicts) dtype inference for one column: int64 when every value is an int,
// float64 when every present value is a number and some are floats or missing, else object.
enum class ColumnDtype { kInt64, kFloat64, kObject };
ColumnDtype infer_dtype(const std::vector<Json>& column);

// The to_csv text of a (present) cell of a column with that dtype: ints as ints, float64 by
// repr (so an int 8 in a float column prints 8.0), object cells by str() with lists as tuples.
CsvValue key_cell(const Json& value, ColumnDtype dtype);

// groupby(sort=True) order of two present keys of one column: numeric for number columns; in
// object columns numbers come before strings (pandas' mixed-type fallback), strings compare by
// code point, anything else by its repr. Returns <0, 0 (same group) or >0.
int compare_keys(const Json& a, const Json& b, ColumnDtype dtype);

}  // namespace loupe::core::prepare::coll
