#pragma once
// Helpers shared by the prepare parity tests.
#include <filesystem>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace loupe::test {

// The bundled MI300X spec as the perf models take it (TraceLens's reports used MI300X).
core::prepare::perf::Arch mi300x_arch();

// Where two CSV texts first differ: the first differing cell (columns matched by name), a
// row-count or column-set difference, or "bytes differ" when only quoting/order differs.
std::string first_csv_difference(const std::string& ours, const std::string& theirs);

// A trace loaded (the test fails when it cannot be) with the event tree the perf report builds
// (prepare_tree_options: python frames included, TraceLens's float times, step annotations).
struct TraceWithTree {
  core::trace::LoadResult loaded;
  core::trace::EventTree tree;
};
TraceWithTree load_with_report_tree(const std::filesystem::path& path);
TraceWithTree load_with_report_tree_from_text(std::string json);

// A perf model's parameter as str() of its Python value; "<absent>" when it has none.
std::string model_param(const core::prepare::perf::ModelResult& result, std::string_view key);

// A perf model's inputs from JSON texts of Input Dims and Input type (and a step annotation).
core::prepare::perf::OpArgs op_args(const char* dims, const char* types,
                                    const char* step_annotation = nullptr);

// The forward perf model of op `name` on `args`.
core::prepare::perf::ModelResult evaluate_forward(std::string_view name,
                                                  const core::prepare::perf::OpArgs& args);

// `text` with every occurrence of `from` replaced by `to`.
std::string replace_all(std::string text, const std::string& from, const std::string& to);

// The pack wrote "<tmp>" for the recording machine's temp directory in b200_eager's call
// stacks (data/reference/README.md, "Path placeholders"); the trace keeps "/tmp". Undoes it.
std::string undo_tmp_placeholder(const std::string& text);

// The "trace_path" value of a category_manifest.json text.
std::string manifest_trace_path(const std::string& manifest);

// The files of a TraceLens reference run that the preparation writes, as paths relative to
// `run_dir`, from the given subdirectories (the analyzers' *_metrics.json are not its job).
std::set<std::string> prepared_reference_files(const std::filesystem::path& run_dir,
                                               const std::vector<std::string>& subdirs);

}  // namespace loupe::test
