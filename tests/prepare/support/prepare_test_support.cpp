#include "prepare_test_support.hpp"

#include <catch2/catch.hpp>

#include <stdexcept>
#include <utility>
#include <vector>

#include "json_text.hpp"
#include "loupe/core/model/arch_specs.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/trace/pseudo_ops.hpp"

namespace loupe::test {

core::prepare::perf::Arch mi300x_arch() {
  for (const auto& file : core::embedded_arch_specs()) {
    if (file.name != "MI300X.json") continue;
    if (auto arch = core::prepare::perf::parse_arch_json(file.text)) return *arch;
  }
  throw std::runtime_error("the bundled MI300X spec is missing or invalid");
}

std::string first_csv_difference(const std::string& ours, const std::string& theirs) {
  const auto a = core::parse_csv(ours);
  const auto b = core::parse_csv(theirs);
  std::string missing;
  std::vector<std::pair<std::size_t, std::size_t>> common;
  for (std::size_t cb = 0; cb < b.column_count(); ++cb) {
    bool found = false;
    for (std::size_t ca = 0; ca < a.column_count(); ++ca) {
      if (a.column_name(ca) == b.column_name(cb)) {
        common.emplace_back(ca, cb);
        found = true;
      }
    }
    if (!found) missing += " " + b.column_name(cb);
  }
  if (a.row_count() != b.row_count()) {
    return "row count " + std::to_string(a.row_count()) + " vs " + std::to_string(b.row_count()) +
           "; missing columns:" + missing;
  }
  for (std::size_t r = 0; r < a.row_count(); ++r) {
    for (const auto& [ca, cb] : common) {
      if (a.cell(r, ca).text != b.cell(r, cb).text) {
        return "row " + std::to_string(r) + " (" + std::string(b.cell(r, 0).text) + ") column " +
               b.column_name(cb) + ": [" + std::string(a.cell(r, ca).text.substr(0, 300)) +
               "] vs [" + std::string(b.cell(r, cb).text.substr(0, 300)) +
               "]; missing columns:" + missing;
      }
    }
  }
  if (a.column_count() != common.size()) return "extra columns; missing:" + missing;
  return missing.empty() ? "bytes differ (column order, quoting or line ends)"
                         : "missing columns:" + missing;
}

namespace {

TraceWithTree with_report_tree(core::trace::LoadResult loaded) {
  REQUIRE_FALSE(loaded.error.has_value());
  auto tree = core::trace::EventTree::build(loaded.model, core::prepare::prepare_tree_options());
  // With pseudo ops, as the reference pipeline builds its tree (trace/pseudo_ops.hpp).
  core::trace::add_pseudo_ops(loaded.model, tree, {});
  return {std::move(loaded), std::move(tree)};
}

}  // namespace

TraceWithTree load_with_report_tree(const std::filesystem::path& path) {
  return with_report_tree(core::trace::load_trace(path));
}

TraceWithTree load_with_report_tree_from_text(std::string json) {
  return with_report_tree(core::trace::load_trace_bytes(std::move(json)));
}

core::prepare::perf::OpArgs op_args(const char* dims, const char* types,
                                    const char* step_annotation) {
  core::prepare::perf::OpArgs args;
  args.input_dims = core::prepare::parse_json_text(dims);
  args.input_types = core::prepare::parse_json_text(types);
  if (step_annotation != nullptr) args.step_annotation = step_annotation;
  return args;
}

core::prepare::perf::ModelResult evaluate_forward(std::string_view name,
                                                  const core::prepare::perf::OpArgs& args) {
  return core::prepare::perf::evaluate(name, args, core::prepare::perf::Direction::kForward);
}

std::string model_param(const core::prepare::perf::ModelResult& result, std::string_view key) {
  for (const auto& [k, v] : result.params) {
    if (k == key) return v.str();
  }
  return "<absent>";
}

std::string replace_all(std::string text, const std::string& from, const std::string& to) {
  for (std::size_t pos = text.find(from); pos != std::string::npos;
       pos = text.find(from, pos + to.size())) {
    text.replace(pos, from.size(), to);
  }
  return text;
}

std::string undo_tmp_placeholder(const std::string& text) {
  return replace_all(text, "<tmp>/torchinductor_", "/tmp/torchinductor_");
}

std::string manifest_trace_path(const std::string& manifest) {
  const std::string key = "\"trace_path\": \"";
  const std::size_t start = manifest.find(key) + key.size();
  return manifest.substr(start, manifest.find('"', start) - start);
}

std::set<std::string> prepared_reference_files(const std::filesystem::path& run_dir,
                                               const std::vector<std::string>& subdirs) {
  std::set<std::string> files;
  for (const auto& sub : subdirs) {
    if (!std::filesystem::is_directory(run_dir / sub)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(run_dir / sub)) {
      const std::string rel = sub + "/" + entry.path().filename().string();
      if (rel.ends_with("_metrics.json")) continue;
      files.insert(rel);
    }
  }
  return files;
}

}  // namespace loupe::test
