// Parity of the perf models with TraceLens's per-family sheets of the reference pack
// (shared/data/reference/<run>/perf_report_csvs/<family>.csv) and with the `perf_params` and
// metric columns of unified_perf_summary.csv. Each row's args are rebuilt from its
// `Input Dims_first`/`Input type_first`/`Input Strides_first`/`Concrete Inputs_first` cells and
// its kernel names from the kernel summary; every `param: *` cell and the metric columns must
// equal what the model computes (numbers bit for bit after pandas' float parsing).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "loupe/compute/py_literal.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/python_format.hpp"
#include "pandas_float.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace perf = loupe::core::prepare::perf;
using loupe::Json;
using loupe::compute::PyValue;

namespace {

// Python literal -> the JSON value the trace held (tuples become lists).
Json to_json(const PyValue& v) {
  if (v.is_none()) return Json();
  if (v.is_bool()) return Json(v.as_bool());
  if (v.is_int()) return Json(static_cast<long long>(v.as_int()));
  if (v.is_float()) return Json(v.as_float());
  if (v.is_string()) return Json(v.as_string());
  if (v.is_sequence()) {
    Json::Array items;
    for (const auto& item : v.items()) items.push_back(to_json(item));
    return Json(std::move(items));
  }
  return Json();
}

Json literal_cell(const std::string& text) {
  if (text.empty()) return Json();
  const auto parsed = loupe::compute::parse_py_literal(text);
  return parsed ? to_json(*parsed) : Json();
}

std::vector<std::string> kernel_names(const std::string& summary) {
  std::vector<std::string> names;
  const auto parsed = loupe::compute::parse_py_literal(summary);
  if (!parsed || !parsed->is_sequence()) return names;
  for (const auto& k : parsed->items()) {
    if (const PyValue* name = k.get("name"); name != nullptr && name->is_string()) {
      names.push_back(name->as_string());
    }
  }
  return names;
}

struct Row {
  const loupe::core::CsvTable& table;
  std::size_t row;
  std::map<std::string, std::size_t> columns;

  Row(const loupe::core::CsvTable& t, std::size_t r) : table(t), row(r) {
    for (std::size_t c = 0; c < t.column_count(); ++c) columns.emplace(t.column_name(c), c);
  }
  bool has(const std::string& col) const { return columns.count(col) != 0; }
  std::string text(const std::string& col) const {
    const auto it = columns.find(col);
    return it == columns.end() ? std::string() : std::string(table.cell(row, it->second).text);
  }
};

// An expected number from a CSV cell (pandas parser); nullopt for an empty (NaN) cell.
std::optional<double> number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  return loupe::core::prepare::pandas_parse_float(text);
}

// The CSV holds Python's float repr, so equal repr <=> equal double. (Reading the cell back
// with pandas' parser is not exact: it can land one ulp off the double TraceLens wrote.)
bool same_number(const std::string& cell, std::optional<double> value) {
  const auto expected = number(cell);
  const bool value_nan = !value || std::isnan(*value);
  if (!expected || std::isnan(*expected)) return value_nan;
  return !value_nan && loupe::py::float_repr(*value) == cell;
}

bool is_backward_op(const std::string& name) {
  return name == "aten::convolution_backward" || name == "ConvBias_Backward" ||
         name == "ConvBiasReLU_Backward" || name == "flash_attn::_flash_attn_varlen_backward";
}

struct Tally {
  int rows = 0;
  int matched = 0;
  int unsupported = 0;
  std::vector<std::string> mismatches;
};

perf::Arch load_arch(const fs::path& path) {
  const auto arch = perf::parse_arch_json(loupe::test::read_text(path));
  REQUIRE(arch);
  return *arch;
}

// Compares one evaluated row; returns "" on a match, else what differed.
std::string compare_row(const Row& r, const perf::ModelResult& result, const perf::Arch& arch,
                        bool sheet) {
  std::ostringstream diff;
  diff.precision(17);
  const perf::Metrics m = perf::compute_metrics(result, 1.0, &arch);
  const std::string suffix = sheet ? "_first" : "";
  if (sheet) {
    for (const auto& [col, index] : r.columns) {
      if (!col.starts_with("param: ")) continue;
      const std::string key = col.substr(7);
      std::string ours = "nan";
      for (const auto& [k, v] : result.params) {
        if (k == key) ours = v.str();
      }
      if (ours != r.text(col)) diff << " [" << col << "] ours=" << ours << " ref=" << r.text(col);
    }
  } else if (perf::params_repr(result.params) != r.text("perf_params")) {
    diff << " [perf_params] ours=" << perf::params_repr(result.params)
         << " ref=" << r.text("perf_params");
  }
  if (!same_number(r.text("GFLOPS" + suffix), m.gflops)) {
    diff << " [GFLOPS] ours=" << m.gflops;
  }
  if (!same_number(r.text("Data Moved (MB)" + suffix), m.data_moved_mb)) {
    diff << " [Data Moved] ours=" << m.data_moved_mb.value_or(NAN)
         << " ref=" << r.text("Data Moved (MB)" + suffix);
  }
  if (!same_number(r.text("FLOPS/Byte" + suffix), m.flops_per_byte)) {
    diff << " [FLOPS/Byte] ours=" << m.flops_per_byte << " ref=" << r.text("FLOPS/Byte" + suffix);
  }
  if (r.text("Compute Spec") != m.compute_spec) diff << " [Compute Spec] ours=" << m.compute_spec;
  if (r.has("Roofline Time (µs)_first") &&
      !same_number(r.text("Roofline Time (µs)_first"), m.roofline_time_us)) {
    diff << " [Roofline Time] ours=" << m.roofline_time_us.value_or(NAN)
         << " ref=" << r.text("Roofline Time (µs)_first");
  }
  const std::string bound_col = sheet ? "Roofline Bound_first" : "Roofline Bound";
  if (r.has(bound_col) && r.text(bound_col) != m.roofline_bound) {
    diff << " [Roofline Bound] ours=" << m.roofline_bound;
  }
  return diff.str();
}

const std::vector<std::string> kFamilySheets = {
    "GEMM",          "CONV_fwd",   "CONV_bwd",   "UnaryElementwise", "BinaryElementwise",
    "Normalization", "Reduce_fwd", "Reduce_bwd", "SDPA_fwd",         "MoE_aux_fwd"};

}  // namespace

TEST_CASE("perf models reproduce every per-family sheet row of the reference pack",
          "[prepare][perf_model][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const perf::Arch arch = load_arch(fs::path(LOUPE_SOURCE_DIR) / "core/arch/MI300X.json");
  std::map<std::string, Tally> tallies;
  std::map<std::string, int> files;
  for (const auto& run : fs::directory_iterator(shared / "data/reference")) {
    for (const auto& family : kFamilySheets) {
      const fs::path csv = run.path() / "perf_report_csvs" / (family + ".csv");
      if (!fs::exists(csv)) continue;
      ++files[family];
      const auto table = loupe::core::parse_csv(loupe::test::read_text(csv));
      for (std::size_t i = 0; i < table.row_count(); ++i) {
        const Row r(table, i);
        const std::string name = r.text("name");
        perf::OpArgs args;
        args.input_dims = literal_cell(r.text("Input Dims_first"));
        args.input_types = literal_cell(r.text("Input type_first"));
        args.input_strides = literal_cell(r.text("Input Strides_first"));
        args.concrete_inputs = literal_cell(r.text("Concrete Inputs_first"));
        args.kernel_names = kernel_names(r.text("kernel_details__summarize_kernel_stats"));
        const bool bwd = family.ends_with("_bwd") && !is_backward_op(name);
        const auto result = perf::evaluate(
            name, args, bwd ? perf::Direction::kBackward : perf::Direction::kForward);
        Tally& tally = tallies[family];
        ++tally.rows;
        if (result.error == perf::ModelError::kUnsupported) {
          ++tally.unsupported;
          continue;
        }
        std::string diff =
            result.ok() ? compare_row(r, result, arch, true) : " model error: " + result.message;
        if (diff.empty()) {
          ++tally.matched;
        } else {
          tally.mismatches.push_back(run.path().filename().string() + " " + name + ":" + diff);
        }
      }
    }
  }
  for (const auto& [family, tally] : tallies) {
    std::ostringstream report;
    report << family << ": " << files[family] << " files, " << tally.rows << " rows, "
           << tally.matched << " matched, " << tally.unsupported << " without a Loupe formula";
    for (std::size_t i = 0; i < tally.mismatches.size() && i < 5; ++i) {
      report << "\n  " << tally.mismatches[i];
    }
    INFO(report.str());
    CHECK(tally.mismatches.empty());
    WARN(report.str());
  }
  CHECK(tallies["GEMM"].matched > 0);
  CHECK(tallies["CONV_bwd"].matched > 0);
}

TEST_CASE("perf_params and metrics of modeled unified_perf_summary rows match",
          "[prepare][perf_model][parity][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const perf::Arch arch = load_arch(fs::path(LOUPE_SOURCE_DIR) / "core/arch/MI300X.json");
  Tally tally;
  int sole_backward = 0;
  for (const auto& run : fs::directory_iterator(shared / "data/reference")) {
    const fs::path csv = run.path() / "perf_report_csvs/unified_perf_summary.csv";
    if (!fs::exists(csv)) continue;
    const auto table = loupe::core::parse_csv(loupe::test::read_text(csv));
    for (std::size_t i = 0; i < table.row_count(); ++i) {
      const Row r(table, i);
      if (r.text("has_perf_model") != "True") continue;
      const std::string name = r.text("name");
      if (perf::find_model(name) == nullptr) {
        ++sole_backward;  // costed through its forward op (needs the tree): not checked here
        continue;
      }
      perf::OpArgs args;
      args.input_dims = literal_cell(r.text("Input Dims"));
      args.input_types = literal_cell(r.text("Input type"));
      args.input_strides = literal_cell(r.text("Input Strides"));
      args.concrete_inputs = literal_cell(r.text("Concrete Inputs"));
      args.kernel_names = kernel_names(r.text("kernel_details_summary"));
      const auto result = perf::evaluate(name, args);
      ++tally.rows;
      if (result.error == perf::ModelError::kUnsupported) {
        ++tally.unsupported;
        continue;
      }
      std::string diff;
      if (r.text("perf_params").empty()) {
        // TraceLens kept the row without params: its model raised.
        if (result.error != perf::ModelError::kFailed) diff = " expected a failed model";
      } else {
        diff =
            result.ok() ? compare_row(r, result, arch, false) : " model error: " + result.message;
      }
      if (diff.empty()) {
        ++tally.matched;
      } else {
        tally.mismatches.push_back(run.path().filename().string() + " " + name + ":" + diff);
      }
    }
  }
  std::ostringstream report;
  report << "unified: " << tally.rows << " modeled rows, " << tally.matched << " matched, "
         << tally.unsupported << " without a Loupe formula, " << sole_backward
         << " sole-backward rows skipped";
  for (std::size_t i = 0; i < tally.mismatches.size() && i < 8; ++i) {
    report << "\n  " << tally.mismatches[i];
  }
  INFO(report.str());
  CHECK(tally.mismatches.empty());
  WARN(report.str());
}
