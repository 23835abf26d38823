#include "loupe/core/prepare/perf_sheets.hpp"

#include <string_view>
#include <unordered_map>

#include "sheet_naming.hpp"
#include "sheet_rows.hpp"
#include "sheet_summary.hpp"
#include "sheet_table.hpp"

namespace loupe::core::prepare {
namespace {

using sheets::SheetTable;

SheetTable summarize(PerfModelCache& models, const trace::EventTree& tree,
                     const std::vector<trace::Uid>& ops, perf::Direction direction,
                     const perf::Arch* arch) {
  return sheets::summarize_sheet_rows(sheets::build_sheet_rows(models, tree, ops, direction, arch));
}

void add_sheet(std::vector<PerfSheet>& out, std::string_view family, std::string_view suffix,
               const SheetTable& table) {
  if (table.empty()) return;
  out.push_back({sheets::sheet_file_name(family, suffix), sheets::to_csv(table)});
}

// Every event of the trace per family, in UID order (TraceLens filters tree.events by name).
std::vector<std::vector<trace::Uid>> ops_per_family(const trace::TraceModel& model) {
  const auto& families = perf::sheet_families();
  std::unordered_map<std::string_view, std::size_t> family_of;
  for (std::size_t f = 0; f < families.size(); ++f) {
    for (const std::string_view name : families[f].second) family_of.emplace(name, f);
  }
  std::vector<std::vector<trace::Uid>> ops(families.size());
  for (trace::Uid uid = 0; uid < model.event_count(); ++uid) {
    const auto it = family_of.find(model.name(uid));
    if (it != family_of.end()) ops[it->second].push_back(uid);
  }
  return ops;
}

}  // namespace

std::vector<PerfSheet> build_perf_sheets(const trace::TraceModel& model,
                                         const trace::EventTree& tree, const perf::Arch* arch) {
  std::vector<PerfSheet> out;
  if (tree.gpu_only()) return out;
  const auto& families = perf::sheet_families();
  const auto ops = ops_per_family(model);
  TraceArgCache args(model);
  PerfModelCache models(args);
  for (std::size_t f = 0; f < families.size(); ++f) {
    if (ops[f].empty()) continue;
    const std::string_view family = families[f].first;
    SheetTable forward = summarize(models, tree, ops[f], perf::Direction::kForward, arch);
    if (sheets::is_single_table_family(family)) {
      add_sheet(out, family, "", forward);
      continue;
    }
    // Backward ops costed by their own model leave the forward table for the backward one;
    // backward rows of forward convolutions are then discarded.
    SheetTable moved = forward;
    sheets::filter_rows_by_name(moved, sheets::moves_to_backward_table);
    sheets::filter_rows_by_name(
        forward, [](std::string_view name) { return !sheets::moves_to_backward_table(name); });
    SheetTable backward =
        sheets::concat(summarize(models, tree, ops[f], perf::Direction::kBackward, arch), moved);
    sheets::filter_rows_by_name(
        backward, [](std::string_view name) { return !sheets::dropped_from_backward_table(name); });
    add_sheet(out, family, "_fwd", forward);
    add_sheet(out, family, "_bwd", backward);
  }
  return out;
}

}  // namespace loupe::core::prepare
