#include "group_agg.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/core/prepare/pandas_numerics.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;
namespace pd = loupe::core::prepare::pandas;

namespace {

Json from_number(const prepare::PandasNumber& n) {
  return n.is_int ? Json(static_cast<std::int64_t>(n.value)) : Json(n.value);
}

}  // namespace

std::vector<std::vector<std::size_t>> group_by(const DictRows& table,
                                               const std::vector<std::string>& keys,
                                               const std::vector<std::size_t>& rows) {
  std::vector<pc::ColumnDtype> dtypes;
  for (const std::string& key : keys) dtypes.push_back(pc::infer_dtype(table.column(key)));
  const auto compare = [&](std::size_t a, std::size_t b) {
    for (std::size_t k = 0; k < keys.size(); ++k) {
      const int c = pc::compare_keys(table.at(a, keys[k]), table.at(b, keys[k]), dtypes[k]);
      if (c != 0) return c;
    }
    return 0;
  };
  std::vector<std::size_t> kept;
  for (const std::size_t r : rows) {
    const bool complete = std::none_of(keys.begin(), keys.end(), [&](const std::string& key) {
      return pc::is_missing(table.at(r, key));
    });
    if (complete) kept.push_back(r);
  }
  std::stable_sort(kept.begin(), kept.end(),
                   [&](std::size_t a, std::size_t b) { return compare(a, b) < 0; });
  std::vector<std::vector<std::size_t>> groups;
  for (const std::size_t r : kept) {
    if (groups.empty() || compare(groups.back().front(), r) != 0) groups.emplace_back();
    groups.back().push_back(r);
  }
  return groups;
}

Json aggregate(const DictRows& table, const std::string& column,
               const std::vector<std::size_t>& group, Agg agg) {
  if (agg == Agg::kSize) return Json(static_cast<std::int64_t>(group.size()));
  if (agg == Agg::kFirst) {
    for (const std::size_t r : group) {
      if (!pc::is_missing(table.at(r, column))) return table.at(r, column);
    }
    return Json(nullptr);
  }
  if (agg == Agg::kCount) {
    return Json(
        static_cast<std::int64_t>(std::count_if(group.begin(), group.end(), [&](std::size_t r) {
          return !pc::is_missing(table.at(r, column));
        })));
  }
  // Numeric aggregates skip missing values.
  const pc::ColumnDtype dtype = pc::infer_dtype(table.column(column));
  const bool is_int = dtype == pc::ColumnDtype::kInt64;
  std::vector<double> values;
  for (const std::size_t r : group) {
    const Json& value = table.at(r, column);
    if (pc::is_missing(value)) {
      if (agg == Agg::kSeriesSumMs) values.push_back(0.0);  // nansum fills NaN with 0
      continue;
    }
    values.push_back(value.as_double());
  }
  if (agg == Agg::kSeriesSumMs) return Json(pd::series_sum(values, is_int).value / 1000.0);
  if (values.empty())
    return Json(agg == Agg::kSum ? 0.0 : std::numeric_limits<double>::quiet_NaN());
  switch (agg) {
    case Agg::kMean:
      return Json(pd::group_mean(values));
    case Agg::kMedian:
      return Json(pd::group_median(values));
    case Agg::kMin:
      return from_number(pd::group_min(values, is_int));
    case Agg::kMax:
      return from_number(pd::group_max(values, is_int));
    case Agg::kSum:
      return from_number(pd::group_sum(values, is_int));
    case Agg::kStd:
      return Json(pd::group_std(values));
    default:
      break;
  }
  throw std::logic_error("aggregate: unhandled aggregation");
}

Agg agg_from_name(const std::string& name) {
  if (name == "mean") return Agg::kMean;
  if (name == "median") return Agg::kMedian;
  if (name == "min") return Agg::kMin;
  if (name == "max") return Agg::kMax;
  if (name == "sum") return Agg::kSum;
  if (name == "std") return Agg::kStd;
  throw std::invalid_argument("unknown aggregation " + name);
}

}  // namespace loupe::core::multirank
