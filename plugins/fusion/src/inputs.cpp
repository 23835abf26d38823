#include "inputs.hpp"

#include <array>
#include <cmath>

#include "loupe/layout.hpp"
#include "loupe/python_format.hpp"

namespace loupe::fusion {

namespace {

constexpr const char* kCandidatesDoc = "category_data/fusion_candidates.json";
constexpr const char* kManifestDoc = layout::kManifest;

const char* kind_name(JsonView::Kind kind) {
  switch (kind) {
    case JsonView::Kind::Absent:
      return "nothing";
    case JsonView::Kind::Null:
      return "null";
    case JsonView::Kind::False:
    case JsonView::Kind::True:
      return "a boolean";
    case JsonView::Kind::Int:
      return "an integer";
    case JsonView::Kind::Double:
      return "a number";
    case JsonView::Kind::String:
      return "a string";
    case JsonView::Kind::Array:
      return "a list";
    case JsonView::Kind::Object:
      return "an object";
  }
  return "something else";
}

// Field readers that stop at the first type problem and remember where it was.
class CandidateReader {
 public:
  explicit CandidateReader(std::string file) : file_(std::move(file)) {}

  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  std::optional<std::string> string_field(const JsonView& obj, std::string_view key,
                                          const std::string& where) {
    const JsonView v = obj[key];
    if (!v) return std::nullopt;
    if (!v.is_string()) return fail(where, key, "a string", v), std::nullopt;
    return std::string(v.as_string());
  }

  std::optional<std::int64_t> int_field(const JsonView& obj, std::string_view key,
                                        const std::string& where) {
    const JsonView v = obj[key];
    if (!v) return std::nullopt;
    if (!v.is_int()) return fail(where, key, "an integer", v), std::nullopt;
    return v.as_int();
  }

  std::optional<double> number_field(const JsonView& obj, std::string_view key,
                                     const std::string& where, bool allow_null = false) {
    const JsonView v = obj[key];
    if (!v || (allow_null && v.is_null())) return std::nullopt;
    if (!v.is_number()) return fail(where, key, "a number", v), std::nullopt;
    const double d = v.as_double();
    if (!std::isfinite(d)) {
      error_ = file_ + ": " + where + "." + std::string(key) + " is " + py::float_repr(d) +
               ", expected a finite number";
      return std::nullopt;
    }
    return d;
  }

  bool bool_field(const JsonView& obj, std::string_view key, const std::string& where) {
    const JsonView v = obj[key];
    if (!v || v.is_null()) return false;
    if (!v.is_bool()) return fail(where, key, "a boolean", v), false;
    return v.as_bool();
  }

  std::vector<Kernel> kernels(const JsonView& obj, std::string_view key, const std::string& where) {
    std::vector<Kernel> out;
    const JsonView list = obj[key];
    if (!list) return out;
    if (!list.is_array()) return fail(where, key, "a list", list), out;
    for (size_t i = 0; i < list.size() && !failed(); ++i) {
      const std::string kw = where + "." + std::string(key) + "[" + std::to_string(i) + "]";
      const JsonView k = list[i];
      if (!k.is_object()) {
        error_ = file_ + ": " + kw + " is " + kind_name(k.kind()) + ", expected an object";
        break;
      }
      Kernel kernel;
      if (auto n = string_field(k, "name", kw)) {
        kernel.name = *n;
      } else if (auto kn = string_field(k, "kernel_name", kw)) {
        kernel.name = *kn;
      }
      if (auto t = string_field(k, "type", kw)) {
        kernel.type = *t;
      } else if (auto kt = string_field(k, "kernel_type", kw)) {
        kernel.type = *kt;
      }
      kernel.dur_us = number_field(k, "dur_us", kw).value_or(0.0);
      kernel.data_in_mb = number_field(k, "data_in_mb", kw, true);
      kernel.data_out_mb = number_field(k, "data_out_mb", kw, true);
      if (k["gpu_op_uid"].is_int()) kernel.gpu_op_uid = k["gpu_op_uid"].as_int();
      out.push_back(std::move(kernel));
    }
    return out;
  }

 private:
  void fail(const std::string& where, std::string_view key, const char* expected,
            const JsonView& got) {
    if (failed()) return;
    error_ = file_ + ": " + where + "." + std::string(key) + " is " + kind_name(got.kind()) +
             ", expected " + expected;
  }

  std::string file_;
  std::string error_;
};

std::optional<InputError> read_candidates(const JsonView& doc, const std::string& file,
                                          bool comparative, std::vector<Candidate>& out) {
  if (!doc.is_array()) {
    return InputError{file + ": expected a JSON list of candidates, got " + kind_name(doc.kind())};
  }
  CandidateReader r(file);
  for (size_t i = 0; i < doc.size(); ++i) {
    const std::string where = "[" + std::to_string(i) + "]";
    const JsonView obj = doc[i];
    if (!obj.is_object()) {
      return InputError{file + ": candidate " + where + " is " + kind_name(obj.kind()) +
                        ", expected an object"};
    }
    Candidate c;
    c.file_index = i;
    const auto base = r.string_field(obj, "base_name", where);
    const auto module = r.string_field(obj, "module_name", where);
    c.base_name = base.value_or("");
    c.module_name = module.value_or("");
    c.operation = base ? *base : module ? *module : std::string("Unknown");
    if (auto source = r.string_field(obj, "source", where)) c.source = *source;
    if (const JsonView chain = obj["parent_chain"]; chain.is_array()) {
      for (size_t k = 0; k < chain.size(); ++k) {
        if (chain[k].is_string()) c.parent_chain.emplace_back(chain[k].as_string());
      }
    }
    c.instance_count = r.int_field(obj, "instance_count", where);
    c.has_fused_kernel = r.bool_field(obj, "has_fused_kernel", where);
    c.input_dims = obj["input_dims"].to_json();
    if (comparative) {
      c.kernel_count = r.int_field(obj, "kernel_count_trace1", where);
      c.kernel_count_trace2 = r.int_field(obj, "kernel_count_trace2", where);
      c.delta = obj["delta"].present() ? obj["delta"].to_json() : Json(0);
      c.kernels = r.kernels(obj, "kernels_trace1", where);
      c.kernels_trace2 = r.kernels(obj, "kernels_trace2", where);
      c.total_us = r.number_field(obj, "total_kernel_time_us_trace1", where);
      c.total_us_trace2 = r.number_field(obj, "total_kernel_time_us_trace2", where);
    } else {
      c.kernel_count = r.int_field(obj, "kernel_count", where);
      c.kernels = r.kernels(obj, "kernels", where);
      c.total_us = r.number_field(obj, "total_kernel_time_us", where);
    }
    if (r.failed()) return InputError{r.error()};
    out.push_back(std::move(c));
  }
  return std::nullopt;
}

bool is_pandas_na(std::string_view text) {
  static constexpr std::array<std::string_view, 18> kNa = {
      "",        "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND",
      "1.#QNAN", "<NA>", "N/A",      "NA",  "NULL",    "NaN",      "n/a",  "nan",  "null"};
  for (auto na : kNa) {
    if (text == na) return true;
  }
  return false;
}

std::optional<std::string> text_cell(const CellView& cell) {
  if (cell.empty() || is_pandas_na(cell.text)) return std::nullopt;
  return std::string(cell.text);
}

std::optional<double> number_cell(const CellView& cell) {
  if (cell.empty() || is_pandas_na(cell.text)) return std::nullopt;
  double value = cell.number;
  if (!cell.is_number() && !py::parse_float(cell.text, value)) return std::nullopt;
  if (std::isnan(value)) return std::nullopt;
  return value;
}

PerfLookup build_lookup(const TableView& table) {
  PerfLookup lookup;
  const size_t summary = table.column("kernel_details_summary");
  const size_t dims = table.column("Input Dims");
  const size_t moved = table.column("Data Moved (MB)");
  const size_t gflops = table.column("GFLOPS");
  const size_t spec = table.column("Compute Spec");
  if (summary == TableView::npos) return lookup;
  for (size_t row = 0; row < table.rows(); ++row) {
    PerfRow r;
    r.kernel_details_summary = text_cell(table.cell(row, summary));
    if (!r.kernel_details_summary) continue;
    r.input_dims = text_cell(table.cell(row, dims));
    r.entry.data_moved_mb = number_cell(table.cell(row, moved));
    r.entry.gflops = number_cell(table.cell(row, gflops));
    r.entry.compute_spec = text_cell(table.cell(row, spec));
    lookup.add_row(r);
  }
  return lookup;
}

std::optional<std::string> load_error(const ModelView& model, const std::string& name) {
  return model.property("load_error:" + name);
}

}  // namespace

std::string input_dir_of(const ModelView& model) {
  return model.property("input_dir").value_or(".");
}

std::variant<Inputs, InputError> load_inputs(const ModelView& model, bool comparative) {
  const std::string in_dir = input_dir_of(model);
  Inputs in;

  const JsonView candidates = model.document(kCandidatesDoc);
  if (!candidates) {
    if (auto why = load_error(model, kCandidatesDoc)) {
      return InputError{"Fusion candidates are not valid JSON: " + *why};
    }
    return InputError{"Fusion candidates not found: " + in_dir + "/" + kCandidatesDoc};
  }

  const JsonView manifest = model.document(kManifestDoc);
  if (!manifest) {
    if (auto why = load_error(model, kManifestDoc)) {
      return InputError{"Category manifest is not valid JSON: " + *why};
    }
  } else if (!manifest.is_object()) {
    return InputError{std::string(kManifestDoc) + ": expected a JSON object, got " +
                      kind_name(manifest.kind())};
  }

  const JsonView scope = manifest["comparison_scope"];
  in.csv_dir = scope.is_string() && scope.as_string() == "comparative" ? "perf_report_trace1_csvs"
                                                                       : "perf_report_csvs";
  const std::string csv_name = in.csv_dir + "/unified_perf_summary.csv";
  const TableView table = model.table(csv_name);
  if (!table) {
    if (auto why = load_error(model, csv_name)) {
      return InputError{"Perf summary CSV could not be read: " + *why};
    }
    return InputError{"Perf summary CSV not found: " + in_dir + "/" + csv_name};
  }

  if (auto err = read_candidates(candidates, kCandidatesDoc, comparative, in.candidates)) {
    return *err;
  }

  const JsonView total = manifest["gpu_utilization"]["total_time_ms"];
  if (total) {
    if (!total.is_number() || !std::isfinite(total.as_double())) {
      return InputError{std::string(kManifestDoc) + ": gpu_utilization.total_time_ms is " +
                        (total.is_number() ? py::float_repr(total.as_double())
                                           : std::string(kind_name(total.kind()))) +
                        ", expected a finite number"};
    }
    in.baseline_ms = total.as_double();
    in.baseline_is_int = total.is_int();
  }
  if (const JsonView platform = manifest["platform"]; platform) {
    if (!platform.is_string()) {
      return InputError{std::string(kManifestDoc) + ": platform is " + kind_name(platform.kind()) +
                        ", expected a string"};
    }
    in.platform = std::string(platform.as_string());
  }
  in.lookup = build_lookup(table);
  return in;
}

std::variant<ArchConfig, InputError> resolve_arch(const ModelView& model,
                                                  const std::string& platform) {
  auto peaks_from = [](const JsonView& tflops, double bw_tbs) {
    Peaks p;
    p.peak_bw_bytes_s = bw_tbs * 1e12;
    const JsonView matrix = tflops["matrix_bf16"];
    const JsonView vector = tflops["vector_bf16"];
    p.matrix_maf = matrix.is_number() ? matrix.as_double() : 1.0;
    p.vector_maf = vector.is_number() ? vector.as_double() : p.matrix_maf;
    return p;
  };
  auto check = [](const JsonView& bw, const JsonView& tflops,
                  const std::string& file) -> std::optional<InputError> {
    if (!bw.is_number() || !(bw.as_double() > 0)) {
      return InputError{file + ": the peak memory bandwidth must be a positive number"};
    }
    if (!tflops.is_object()) {
      return InputError{file + ": max_achievable_tflops must be an object"};
    }
    for (const char* key : {"matrix_bf16", "vector_bf16"}) {
      const JsonView v = tflops[key];
      if (v && (!v.is_number() || !(v.as_double() > 0))) {
        return InputError{file + ": max_achievable_tflops." + key + " must be a positive number"};
      }
    }
    return std::nullopt;
  };

  for (size_t i = 0; i < model.document_count(); ++i) {
    const std::string name(model.document_name(i));
    if (name.rfind("metadata/", 0) != 0) continue;
    if (name.size() < 14 || name.compare(name.size() - 14, 14, "_metadata.json") != 0) continue;
    const JsonView meta = model.document(name);
    if (!meta.is_object()) continue;
    const JsonView bw = meta["peak_hbm_bw_tbs"];
    const JsonView tflops = meta["max_achievable_tflops"];
    if (!bw || !tflops) continue;
    if (auto err = check(bw, tflops, name)) return *err;
    ArchConfig arch;
    arch.peak_hbm_bw_tbs = bw.to_json();
    arch.peaks = peaks_from(tflops, bw.as_double());
    arch.source = name;
    return arch;
  }

  const std::string arch_name = "arch/" + platform + ".json";
  const JsonView arch_doc = model.document(arch_name);
  if (!arch_doc.is_object()) {
    return InputError{"No arch config found for platform " + platform +
                      " in metadata or arch JSON"};
  }
  const JsonView gbps = arch_doc["mem_bw_gbps"];
  const JsonView tflops = arch_doc["max_achievable_tflops"];
  if (auto err = check(gbps, tflops, arch_name)) return *err;
  ArchConfig arch;
  const double tbs = gbps.as_double() / 1000;
  arch.peak_hbm_bw_tbs = Json(tbs);
  arch.peaks = peaks_from(tflops, tbs);
  arch.source = arch_name;
  return arch;
}

}  // namespace loupe::fusion
