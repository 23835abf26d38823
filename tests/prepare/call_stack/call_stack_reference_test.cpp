// entry_point and call_stack_full recomputed for every row of every reference
// unified_perf_summary.csv (TraceLens ran with --include_call_stack) and compared exactly.
// Collected rows are recomputed from their ex_UID node; the template kernels are that node's
// GPU ops put into the order of the row's kernel_details_summary.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/call_stack.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lt = loupe::core::trace;
namespace lp = loupe::core::prepare;

namespace {

constexpr std::string_view kSyntheticSuffix = " (Synthetic Op)";

// Reads the Python string literal starting at text[at] (quote char), unescaping the escapes
// repr() produces. Advances `at` past the closing quote.
std::string read_py_string(std::string_view text, std::size_t& at) {
  const char quote = text[at++];
  std::string out;
  while (at < text.size() && text[at] != quote) {
    char c = text[at++];
    if (c == '\\' && at < text.size()) {
      const char e = text[at++];
      switch (e) {
        case 'n':
          c = '\n';
          break;
        case 'r':
          c = '\r';
          break;
        case 't':
          c = '\t';
          break;
        case 'x':
          c = static_cast<char>(std::stoi(std::string(text.substr(at, 2)), nullptr, 16));
          at += 2;
          break;
        default:
          c = e;
          break;
      }
    }
    out.push_back(c);
  }
  ++at;
  return out;
}

// The 'name' of every entry of a kernel_details_summary cell, in order.
std::vector<std::string> summary_kernel_names(std::string_view cell) {
  static constexpr std::string_view kKey = "{'name': ";
  std::vector<std::string> names;
  for (std::size_t at = cell.find(kKey); at != std::string_view::npos; at = cell.find(kKey, at)) {
    at += kKey.size();
    names.push_back(read_py_string(cell, at));
  }
  return names;
}

// The template kernels permuted into summary order: each summary entry takes the first
// unused GPU op of that name (launch order). Sets `ambiguous` when two same-named ops of
// the template have different call stacks, so the pairing could matter.
std::optional<std::vector<lt::Uid>> kernels_in_summary_order(
    const lt::TraceModel& model, const lt::EventTree& tree, lt::Uid node,
    const std::vector<lt::Uid>& gpu_ops, const std::vector<std::string>& names, bool& ambiguous) {
  if (gpu_ops.size() != names.size()) return std::nullopt;
  std::vector<bool> used(gpu_ops.size(), false);
  std::vector<lt::Uid> ordered;
  for (const auto& name : names) {
    std::size_t pick = gpu_ops.size();
    for (std::size_t i = 0; i < gpu_ops.size(); ++i) {
      if (used[i] || model.name(gpu_ops[i]) != name) continue;
      if (pick == gpu_ops.size()) {
        pick = i;
      } else if (lp::frames_below(model, tree, node, gpu_ops[i]) !=
                 lp::frames_below(model, tree, node, gpu_ops[pick])) {
        ambiguous = true;
      }
    }
    if (pick == gpu_ops.size()) return std::nullopt;
    used[pick] = true;
    ordered.push_back(gpu_ops[pick]);
  }
  return ordered;
}

// The first GPU op named `name` (synthetic rows only print the kernel name).
std::optional<lt::Uid> gpu_op_named(const lt::TraceModel& model, std::string_view name) {
  for (lt::Uid uid = 0; uid < model.event_count(); ++uid) {
    if (lt::is_gpu_category(model.event(uid).category) && model.name(uid) == name) return uid;
  }
  return std::nullopt;
}

// The pack replaced the recording machine's temp directory by "<tmp>" in b200's CSV
// (data/reference/README.md, "Path placeholders"); the trace keeps "/tmp". Undo it.
std::string undo_path_placeholders(std::string cell) {
  static constexpr std::string_view kPlaceholder = "<tmp>/";
  for (auto at = cell.find(kPlaceholder); at != std::string::npos;
       at = cell.find(kPlaceholder, at)) {
    cell.replace(at, kPlaceholder.size(), "/tmp/");
  }
  return cell;
}

std::size_t column_of(const loupe::core::CsvTable& table, std::string_view name) {
  for (std::size_t c = 0; c < table.column_count(); ++c) {
    if (table.column_name(c) == name) return c;
  }
  FAIL("column " << name << " missing");
  return 0;
}

struct RunTally {
  std::size_t rows = 0, entry_ok = 0, full_ok = 0, synthetic = 0, synthetic_ok = 0;
  std::size_t ambiguous = 0;
};

}  // namespace

TEST_CASE("entry_point and call_stack_full equal TraceLens's for every reference row",
          "[prepare][call_stack][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto runs = loupe::test::reference_runs(shared);
  std::size_t runs_compared = 0;
  std::size_t rows_compared = 0;
  for (const auto& run : runs) {
    const fs::path csv_path = run.directory / "perf_report_csvs/unified_perf_summary.csv";
    if (!fs::exists(csv_path)) continue;
    INFO("run " << run.name);
    auto loaded = lt::load_trace(run.trace);
    REQUIRE_FALSE(loaded.error.has_value());
    const lt::TraceModel& model = loaded.model;
    lt::TreeOptions options;
    options.add_python_func = true;
    options.time_mode = lt::TimeMode::kTraceLensCompat;
    const auto tree = lt::EventTree::build(model, options);

    const auto table = loupe::core::parse_csv(loupe::test::read_text(csv_path));
    const std::size_t name_col = column_of(table, "name");
    const std::size_t uid_col = column_of(table, "ex_UID");
    const std::size_t summary_col = column_of(table, "kernel_details_summary");
    const std::size_t entry_col = column_of(table, "entry_point");
    const std::size_t full_col = column_of(table, "call_stack_full");

    RunTally tally;
    for (std::size_t row = 0; row < table.row_count(); ++row) {
      const std::string_view name = table.cell(row, name_col).text;
      const auto names = summary_kernel_names(table.cell(row, summary_col).text);
      const std::string want_entry =
          undo_path_placeholders(std::string(table.cell(row, entry_col).text));
      const std::string want_full =
          undo_path_placeholders(std::string(table.cell(row, full_col).text));
      INFO("row " << row << " " << name << " ex_UID " << table.cell(row, uid_col).text);
      lp::CallStackColumns got;
      const bool synthetic = name.ends_with(kSyntheticSuffix);
      if (synthetic) {
        std::vector<lt::Uid> kernels;
        for (const auto& kernel_name : names) {
          const auto uid = gpu_op_named(model, kernel_name);
          REQUIRE(uid.has_value());
          kernels.push_back(*uid);
        }
        got = lp::synthetic_call_stack_columns(model, kernels, name);
        ++tally.synthetic;
        const bool ok = got.entry_point == want_entry && got.call_stack_full == want_full;
        tally.synthetic_ok += ok ? 1 : 0;
        CHECK(got.entry_point == want_entry);
        CHECK(got.call_stack_full == want_full);
        continue;
      }
      const auto node = static_cast<lt::Uid>(table.cell(row, uid_col).number);
      REQUIRE(node < model.event_count());
      REQUIRE(model.name(node) == name);
      bool ambiguous = false;
      const auto kernels =
          kernels_in_summary_order(model, tree, node, tree.gpu_events(node), names, ambiguous);
      REQUIRE(kernels.has_value());
      tally.ambiguous += ambiguous ? 1 : 0;
      got = lp::call_stack_columns(model, tree, node, *kernels, name);
      ++tally.rows;
      tally.entry_ok += got.entry_point == want_entry ? 1 : 0;
      tally.full_ok += got.call_stack_full == want_full ? 1 : 0;
      CHECK(got.entry_point == want_entry);
      CHECK(got.call_stack_full == want_full);
    }
    std::printf("%-48s rows %3zu  entry_point %3zu  call_stack_full %3zu  synthetic %zu/%zu%s\n",
                run.name.c_str(), tally.rows, tally.entry_ok, tally.full_ok, tally.synthetic_ok,
                tally.synthetic, tally.ambiguous > 0 ? "  (same-name pairing ambiguous)" : "");
    rows_compared += tally.rows;
    ++runs_compared;
  }
  std::printf("runs %zu, collected rows %zu\n", runs_compared, rows_compared);
  CHECK(runs_compared >= 30);
}
