// unified_perf_summary.csv -> per-kernel data split (spec docs/contracts/fusion.md §2.6, §1.6).
#include "perf_lookup.hpp"

#include <cctype>
#include <string>

#include "loupe/compute/py_literal.hpp"
#include "loupe/compute/shape_key.hpp"
#include "pandas_float.hpp"

namespace loupe::core::prepare::fusion {
namespace {

using loupe::compute::first_shape_key;
using loupe::compute::PyValue;

std::optional<std::size_t> column(const CsvTable& table, std::string_view name) {
  for (std::size_t c = 0; c < table.column_count(); ++c) {
    if (table.column_name(c) == name) return c;
  }
  return std::nullopt;
}

// A cell's text as pandas would hold it; nullopt for an empty (NaN) cell.
std::optional<std::string> cell_text(const CsvTable& table, std::size_t row,
                                     std::optional<std::size_t> col) {
  if (!col) return std::nullopt;
  const CsvCellView cell = table.cell(row, *col);
  if (cell.kind == CsvCell::Kind::Empty) return std::nullopt;
  return std::string(cell.text);
}

std::optional<double> cell_number(const CsvTable& table, std::size_t row,
                                  std::optional<std::size_t> col) {
  if (!col) return std::nullopt;
  const CsvCellView cell = table.cell(row, *col);
  if (cell.kind == CsvCell::Kind::Empty) return std::nullopt;
  return pandas_parse_float(cell.text);
}

}  // namespace

DataSplit compute_data_in_out(std::string_view op_category, std::string_view perf_params,
                              std::optional<double> dm) {
  DataSplit half;
  if (dm && *dm != 0.0) half = {*dm / 2, *dm / 2};
  PyValue params{PyValue::Dict{}};
  if (!perf_params.empty()) {
    auto parsed = loupe::compute::parse_py_literal(perf_params);
    if (!parsed) return half;
    params = std::move(*parsed);
  }
  if (!dm) return half;
  if (op_category == "GEMM") {
    if (!params.is_dict()) {
      throw ExtractionError("perf_params of a GEMM row is not a dict");
    }
    const PyValue* m = params.get("M");
    const PyValue* n = params.get("N");
    const PyValue* k = params.get("K");
    if (m && n && k && m->truthy() && n->truthy() && k->truthy()) {
      if (m->is_int() && n->is_int() && k->is_int()) {
        const std::int64_t mi = m->as_int(), ni = n->as_int(), ki = k->as_int();
        const auto tot = static_cast<double>(mi * ki + ki * ni + mi * ni);
        return {*dm * static_cast<double>(mi * ki + ki * ni) / tot,
                *dm * static_cast<double>(mi) * static_cast<double>(ni) / tot};
      }
      // Python-int-like view (ints, bools; floats kept as double).
      const double md = *m->number(), nd = *n->number(), kd = *k->number();
      const double tot = md * kd + kd * nd + md * nd;
      return {*dm * (md * kd + kd * nd) / tot, *dm * md * nd / tot};
    }
    return half;
  }
  if (op_category == "reduce") return {*dm, 0.0};
  if (op_category == "elementwise" && params.is_dict() && params.get("shape_in1") != nullptr) {
    return {*dm * 2 / 3, *dm / 3};
  }
  return half;
}

std::vector<std::string> kernel_names_in_summary(std::string_view s) {
  std::vector<std::string> names;
  constexpr std::string_view kKey = "'name':";
  std::size_t pos = 0;
  while ((pos = s.find(kKey, pos)) != std::string_view::npos) {
    std::size_t p = pos + kKey.size();
    while (p < s.size() && std::isspace(static_cast<unsigned char>(s[p])) != 0) ++p;
    pos += kKey.size();
    if (p >= s.size() || s[p] != '\'') continue;
    const std::size_t start = p + 1;
    const std::size_t end = s.find('\'', start);
    if (end == std::string_view::npos || end == start) continue;
    names.emplace_back(s.substr(start, end - start));
    pos = end + 1;
  }
  return names;
}

PerfLookup PerfLookup::build(const CsvTable& table) {
  PerfLookup out;
  const auto c_summary = column(table, "kernel_details_summary");
  const auto c_dm = column(table, "Data Moved (MB)");
  const auto c_pp = column(table, "perf_params");
  const auto c_cat = column(table, "op category");
  const auto c_dims = column(table, "Input Dims");
  if (!c_summary) return out;
  for (std::size_t row = 0; row < table.row_count(); ++row) {
    const auto summary = cell_text(table, row, c_summary);
    if (!summary) continue;
    const auto dm = cell_number(table, row, c_dm);
    const std::string pp = cell_text(table, row, c_pp).value_or("");
    const std::string cat = cell_text(table, row, c_cat).value_or("nan");
    const DataSplit split = compute_data_in_out(cat, pp, dm);
    const auto dims = cell_text(table, row, c_dims);
    const std::optional<std::string> key =
        dims ? first_shape_key(std::string_view(*dims)) : std::nullopt;
    for (auto& name : kernel_names_in_summary(*summary)) {
      auto [it, inserted] = out.index_.emplace(name, out.names_.size());
      if (inserted) out.names_.emplace_back(std::move(name), Shapes{});
      Shapes& shapes = out.names_[it->second].second;
      bool present = false;
      for (const auto& [k, e] : shapes) {
        if (k == key) {
          present = true;
          break;
        }
      }
      if (!present) shapes.emplace_back(key, PerfEntry{cat, split});
    }
  }
  return out;
}

const PerfLookup::Shapes* PerfLookup::shapes_for(std::string_view kname) const {
  if (const auto it = index_.find(std::string(kname)); it != index_.end()) {
    const Shapes& shapes = names_[it->second].second;
    if (!shapes.empty()) return &shapes;
  }
  for (const auto& [name, shapes] : names_) {
    if (kname.starts_with(name) || std::string_view(name).starts_with(kname)) return &shapes;
  }
  return nullptr;
}

const PerfEntry* PerfLookup::lookup(std::string_view kname, const Json& input_dims) const {
  const Shapes* shapes = shapes_for(kname);
  if (shapes == nullptr || shapes->empty()) return nullptr;
  // A falsy input_dims has the none key (§1.6 step 3); first_shape_key gives none for it.
  const std::optional<std::string> key = first_shape_key(input_dims);
  for (const auto& [k, e] : *shapes) {
    if (k == key) return &e;
  }
  return &shapes->front().second;
}

bool PerfLookup::is_gemm(std::string_view kname) const {
  const Shapes* shapes = shapes_for(kname);
  if (shapes == nullptr) return false;
  for (const auto& [k, e] : *shapes) {
    if (e.op_category == "GEMM") return true;
  }
  return false;
}

}  // namespace loupe::core::prepare::fusion
