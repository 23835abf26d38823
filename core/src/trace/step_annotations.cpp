// Serving-engine step annotations on ops (TraceLens's apply_annotation): vLLM and SGLang wrap
// each model step in a user annotation whose name carries the step's request and token counts
// (e.g. "execute_8192_context_9(sq8155sk...)_generation_37(...)"); the inference-attention
// perf model reads them from the op. An op gets the first annotation, by start time, whose
// interval strictly encloses it, in TraceLens's microsecond arithmetic. Default mode also
// annotates the other engines' attention ops (serving_step_annotation()).
#include <algorithm>

#include "loupe/core/trace/event_tree.hpp"

namespace loupe::core::trace {

void EventTree::annotate_ops(const TraceModel& model, Uid first) {
  std::vector<Uid> annotations;
  const auto n = static_cast<Uid>(model.event_count());
  for (Uid u = 0; u < n; ++u) {
    const StringId cat = model.event(u).cat;
    if (cat != kNoString && model.str(cat).find("user_annotation") != std::string_view::npos) {
      annotations.push_back(u);
    }
  }
  std::stable_sort(annotations.begin(), annotations.end(),
                   [&](Uid a, Uid b) { return model.ts_us(a) < model.ts_us(b); });
  const auto starts_with_any = [](std::string_view name, const std::vector<std::string>& list) {
    return std::any_of(list.begin(), list.end(),
                       [&](const std::string& prefix) { return name.starts_with(prefix); });
  };
  for (Uid u = first; u < n; ++u) {
    // An added op without times (one inserted above a launch) encloses nothing and is named
    // by no prefix; one that matched would fail in TraceLens, so it is left unannotated.
    const std::uint16_t flags = model.event(u).flags;
    if (first != 0 && ((flags & kHasTs) == 0 || (flags & kHasDur) == 0)) continue;
    const bool compat = starts_with_any(model.name(u), options_.annotate_op_prefixes);
    const bool serving = starts_with_any(model.name(u), options_.serving_annotate_op_prefixes);
    if (!compat && !serving) continue;
    const double ts = model.ts_us(u);
    const double end = ts + model.dur_us(u);
    Uid found = kNoUid;
    for (const Uid a : annotations) {
      if (model.ts_us(a) <= ts && end < model.ts_us(a) + model.dur_us(a)) {
        found = a;
        break;
      }
    }
    if (compat) step_annotation_.emplace(u, found);
    if (serving) serving_step_annotation_.emplace(u, found);
  }
}

std::optional<std::string_view> EventTree::step_annotation(const TraceModel& model, Uid uid) const {
  const auto it = step_annotation_.find(uid);
  if (it == step_annotation_.end()) return std::nullopt;
  if (it->second == kNoUid) return std::string_view("NA");
  return model.name(it->second);
}

std::optional<std::string_view> EventTree::serving_step_annotation(const TraceModel& model,
                                                                   Uid uid) const {
  const auto it = serving_step_annotation_.find(uid);
  if (it == serving_step_annotation_.end()) return std::nullopt;
  if (it->second == kNoUid) return std::string_view("NA");
  return model.name(it->second);
}

}  // namespace loupe::core::trace
