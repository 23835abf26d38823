// Appending a block's model to the main model (the merge step of the parallel parse,
// parallel_event_reader.hpp). Blocks are appended in file order, and every table is remapped so
// that the result is the model one pass over the file builds:
//  * strings: the block's pool is interned in its own id order, which is the order of first
//    sight inside the block, so new strings get the ids a single pass would give them;
//  * threads: likewise in order of first sight; an `M` event's assignments are replayed field by
//    field (the block's last assignment of a field wins, as in one pass);
//  * events: names, cats and threads remapped; detail records re-encoded with the new string ids
//    (ids and inline integers are copied as they are); Uids shifted by the events before;
//  * warnings: counts added; a block's sample is kept when it is the first of its kind overall.
#include <algorithm>
#include <cstdint>
#include <iterator>
#include <vector>

#include "trace_model_builder.hpp"
#include "varint.hpp"

namespace loupe::core::trace {

void TraceModelBuilder::append_block(const TraceModelBuilder& block) {
  const TraceModel& local = block.model_;

  std::vector<StringId> strings(local.strings_.size());
  for (StringId id = 0; id < strings.size(); ++id) {
    strings[id] = model_.strings_.intern_from(local.strings_, id);
  }
  const auto string_of = [&strings](StringId id) {
    return id == kNoString ? kNoString : strings[id];
  };
  const auto id_value = [&strings](IdValue v) {
    if (v.is_string) v.value = strings[static_cast<StringId>(v.value)];
    return v;
  };

  std::vector<std::uint32_t> threads(local.threads_.size());
  for (std::uint32_t i = 0; i < threads.size(); ++i) {
    const ThreadInfo& from = local.threads_[i];
    threads[i] = thread_index(id_value(from.key.pid), id_value(from.key.tid));
    const std::uint8_t assigned =
        i < block.thread_meta_assigned_.size() ? block.thread_meta_assigned_[i] : 0;
    if (assigned == 0) continue;
    ThreadInfo& to = model_.threads_[threads[i]];
    const auto has = [assigned](ThreadMetaField f) {
      return (assigned & static_cast<std::uint8_t>(f)) != 0;
    };
    if (has(ThreadMetaField::kProcessName)) to.process_name = string_of(from.process_name);
    if (has(ThreadMetaField::kThreadName)) to.thread_name = string_of(from.thread_name);
    if (has(ThreadMetaField::kProcessLabels)) to.process_labels = string_of(from.process_labels);
    if (has(ThreadMetaField::kProcessSortIndex)) to.process_sort_index = from.process_sort_index;
    if (has(ThreadMetaField::kThreadSortIndex)) to.thread_sort_index = from.thread_sort_index;
    if (thread_meta_assigned_.size() <= threads[i])
      thread_meta_assigned_.resize(threads[i] + 1u, 0);
    thread_meta_assigned_[threads[i]] |= assigned;
  }

  const auto base = static_cast<Uid>(model_.events_.size());
  for (std::size_t u = 0; u < local.events_.size(); ++u) {
    Event e = local.events_[u];
    e.name = string_of(e.name);
    e.cat = string_of(e.cat);
    if (e.thread != kNoIndex) e.thread = threads[e.thread];
    if ((e.flags & kHasDetail) != 0) {
      // Layout: TraceModel::detail (trace_model.cpp).
      const std::uint8_t* p = local.details_.at(e.detail_address());
      const std::uint8_t present = *p++;
      record_.clear();
      record_.push_back(present);
      for (int bit = 0; bit < 4; ++bit) {
        if ((present & (1u << bit)) != 0) put_varint(record_, get_varint(p));
      }
      const std::uint64_t pairs = get_varint(p);
      put_varint(record_, pairs);
      for (std::uint64_t i = 0; i < pairs; ++i) {
        put_varint(record_, string_of(static_cast<StringId>(get_varint(p))));
        const std::uint64_t value = get_varint(p);
        put_varint(record_,
                   (value & 1) != 0 ? value : static_cast<std::uint64_t>(strings[value >> 1]) << 1);
      }
      const std::uint64_t address = model_.details_.append(record_.data(), record_.size());
      e.detail = static_cast<std::uint32_t>(address);
      e.detail_hi = static_cast<std::uint16_t>(address >> 32);
    }
    model_.events_.push_back(e);
  }
  for (const auto& [uid, value] : local.ts_fallback_) model_.ts_fallback_[base + uid] = value;
  for (const auto& [uid, value] : local.dur_fallback_) model_.dur_fallback_[base + uid] = value;

  for (int c = 0; c < kCategoryCount; ++c) model_.category_counts_[c] += local.category_counts_[c];
  for (StringId cat = 0; cat < local.cat_string_counts_.size(); ++cat) {
    const std::uint64_t n = local.cat_string_counts_[cat];
    if (n == 0) continue;
    const StringId to = strings[cat];
    if (model_.cat_string_counts_.size() <= to) model_.cat_string_counts_.resize(to + 1u, 0);
    model_.cat_string_counts_[to] += n;
  }

  TraceDiagnostics& diag = model_.diagnostics_;
  const TraceDiagnostics& from = local.diagnostics_;
  for (std::size_t i = 0; i < from.samples.size(); ++i) {
    const Warning w = from.sample_kinds[i];
    if (diag.warnings[static_cast<int>(w)] == 0 && diag.samples.size() < 32) {
      diag.samples.push_back(from.samples[i]);
      diag.sample_kinds.push_back(w);
    }
  }
  for (int w = 0; w < static_cast<int>(Warning::kCount); ++w) diag.warnings[w] += from.warnings[w];
}

void TraceModelBuilder::clear_for_reuse(TraceModel& model) {
  model.events_.clear();
  model.details_.clear();
  model.strings_.clear();
  model.threads_.clear();
  model.ts_fallback_.clear();
  model.dur_fallback_.clear();
  model.metadata_.clear();
  std::fill(std::begin(model.category_counts_), std::end(model.category_counts_), 0);
  model.cat_string_counts_.clear();
  model.diagnostics_ = TraceDiagnostics{};
}

}  // namespace loupe::core::trace
