#include "loupe/core/prepare/coll/key_columns.hpp"

#include <cmath>
#include <string>

#include "loupe/core/prepare/py_repr.hpp"

namespace loupe::core::prepare::coll {

namespace {

// Python bools are ints, but pandas keeps them in object columns; treat them as "other".
bool is_number(const Json& value) { return value.is_int() || value.is_double(); }

int three_way(double a, double b) { return a < b ? -1 : (b < a ? 1 : 0); }

// Object-column class rank: numbers, then strings, then everything else.
int object_rank(const Json& value) {
  if (is_number(value)) return 0;
  if (value.is_string()) return 1;
  return 2;
}

}  // namespace

bool is_missing(const Json& value) {
  return value.is_null() || (value.is_double() && std::isnan(value.as_double()));
}

ColumnDtype infer_dtype(const std::vector<Json>& column) {
  bool any_present = false;
  bool all_int = true;
  for (const Json& value : column) {
    if (value.is_null()) {
      all_int = false;
      continue;
    }
    if (!is_number(value)) return ColumnDtype::kObject;
    any_present = true;
    if (!value.is_int()) all_int = false;
  }
  if (!any_present) return ColumnDtype::kObject;  // all None stays object
  return all_int ? ColumnDtype::kInt64 : ColumnDtype::kFloat64;
}

CsvValue key_cell(const Json& value, ColumnDtype dtype) {
  switch (dtype) {
    case ColumnDtype::kInt64:
      return CsvValue::integer(value.as_int());
    case ColumnDtype::kFloat64:
      return CsvValue::real(value.as_double());
    case ColumnDtype::kObject:
      break;
  }
  return CsvValue::text(py_json_str(value, /*lists_as_tuples=*/true));
}

int compare_keys(const Json& a, const Json& b, ColumnDtype dtype) {
  if (dtype != ColumnDtype::kObject) return three_way(a.as_double(), b.as_double());
  const int rank_a = object_rank(a);
  const int rank_b = object_rank(b);
  if (rank_a != rank_b) return rank_a < rank_b ? -1 : 1;
  if (rank_a == 0) return three_way(a.as_double(), b.as_double());
  // UTF-8 byte order equals code point order.
  if (rank_a == 1) {
    const int c = a.as_string().compare(b.as_string());
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
  }
  const std::string repr_a = py_json_repr(a, true);
  const std::string repr_b = py_json_repr(b, true);
  return repr_a < repr_b ? -1 : (repr_a == repr_b ? 0 : 1);
}

}  // namespace loupe::core::prepare::coll
