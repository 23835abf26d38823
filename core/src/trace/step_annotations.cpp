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
  // Per distinct string (a trace repeats a few thousand names and cats over all its events):
  // 0 not computed yet, else 1 + the answer's bits.
  std::vector<std::uint8_t> memo(model.strings().size(), 0);
  const auto memoized = [&](StringId id, auto&& compute) -> std::uint8_t {
    if (id == kNoString || id >= memo.size()) return compute(model.str(id));
    if (memo[id] == 0) memo[id] = static_cast<std::uint8_t>(1 + compute(model.str(id)));
    return static_cast<std::uint8_t>(memo[id] - 1);
  };
  std::vector<Uid> annotations;
  const auto n = static_cast<Uid>(model.event_count());
  for (Uid u = 0; u < n; ++u) {
    const StringId cat = model.event(u).cat;
    const auto is_annotation = [](std::string_view text) -> std::uint8_t {
      return text.find("user_annotation") != std::string_view::npos ? 1 : 0;
    };
    if (cat != kNoString && memoized(cat, is_annotation) != 0) annotations.push_back(u);
  }
  std::stable_sort(annotations.begin(), annotations.end(),
                   [&](Uid a, Uid b) { return model.ts_us(a) < model.ts_us(b); });
  const auto starts_with_any = [](std::string_view name, const std::vector<std::string>& list) {
    return std::any_of(list.begin(), list.end(),
                       [&](const std::string& prefix) { return name.starts_with(prefix); });
  };
  constexpr std::uint8_t kCompat = 1;
  constexpr std::uint8_t kServing = 2;
  const auto prefixes = [&](std::string_view name) -> std::uint8_t {
    return (starts_with_any(name, options_.annotate_op_prefixes) ? kCompat : 0) |
           (starts_with_any(name, options_.serving_annotate_op_prefixes) ? kServing : 0);
  };
  std::fill(memo.begin(), memo.end(), 0);  // names now
  for (Uid u = first; u < n; ++u) {
    // An added op without times (one inserted above a launch) encloses nothing and is named
    // by no prefix; one that matched would fail in TraceLens, so it is left unannotated.
    const std::uint16_t flags = model.event(u).flags;
    if (first != 0 && ((flags & kHasTs) == 0 || (flags & kHasDur) == 0)) continue;
    const std::uint8_t named = memoized(model.event(u).name, prefixes);
    const bool compat = (named & kCompat) != 0;
    const bool serving = (named & kServing) != 0;
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
