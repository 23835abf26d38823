// The in-memory model of one PyTorch-profiler (Kineto) Chrome trace: every element of
// `traceEvents` in file order (index = TraceLens's UID), exact int64-nanosecond times,
// interned strings, a thread table with the `M` metadata, and the top-level metadata keys.
// Spec: docs/contracts/trace_model.md §1 and §5.3.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "loupe/core/trace/detail_arena.hpp"
#include "loupe/core/trace/segmented_vector.hpp"
#include "loupe/core/trace/string_pool.hpp"
#include "loupe/core/trace/trace_diagnostics.hpp"

namespace loupe::core::trace {

using Uid = std::uint32_t;
inline constexpr Uid kNoUid = 0xFFFFFFFFu;
inline constexpr std::int64_t kNoValue = INT64_MIN;  // absent integer field
inline constexpr std::uint32_t kNoIndex = 0xFFFFFFFFu;

// The `cat` string mapped to an enum at parse time (unknown strings: kOther, raw kept).
enum class Category : std::uint8_t {
  kNone,  // no `cat` key
  kCpuOp,
  kPythonFunction,
  kCudaRuntime,
  kCudaDriver,
  kKernel,
  kGpuMemcpy,
  kGpuMemset,
  kAc2g,
  kFwdBwd,
  kUserAnnotation,
  kGpuUserAnnotation,
  kCpuInstantEvent,
  kTrace,
  kOverhead,
  kOther,
};
inline constexpr int kCategoryCount = static_cast<int>(Category::kOther) + 1;
std::string_view category_name(Category c);  // "cpu_op", ..., "(none)", "other"
Category category_from_string(std::string_view cat);

inline bool is_gpu_category(Category c) {
  return c == Category::kKernel || c == Category::kGpuMemcpy || c == Category::kGpuMemset;
}
inline bool is_runtime_category(Category c) {
  return c == Category::kCudaRuntime || c == Category::kCudaDriver;
}

enum class Phase : std::uint8_t {
  kNone,
  kComplete,
  kInstant,
  kFlowStart,
  kFlowEnd,
  kMetadata,
  kOther
};
Phase phase_from_string(std::string_view ph);
std::string_view phase_name(Phase p);

// pid or tid: an integer or an (interned) string; compared by value, ints and strings distinct.
struct IdValue {
  bool is_string = false;
  std::int64_t value = 0;  // the integer, or the StringId when is_string
  bool operator==(const IdValue&) const = default;
};
struct ThreadKey {
  IdValue pid;
  IdValue tid;
  bool operator==(const ThreadKey&) const = default;
};

// One (pid, tid) pair seen in the trace, with its `M` metadata (last record wins, §1.7).
struct ThreadInfo {
  ThreadKey key;
  StringId process_name = kNoString;
  StringId process_labels = kNoString;
  StringId thread_name = kNoString;
  std::int64_t process_sort_index = kNoValue;
  std::int64_t thread_sort_index = kNoValue;
};

enum EventFlags : std::uint16_t {
  kHasTs = 1u << 0,
  kHasDur = 1u << 1,
  kHasArgs = 1u << 2,
  kTsFallback = 1u << 3,  // ts had > 3 decimals or an exponent: exact double kept aside
  kDurFallback = 1u << 4,
  kHasThread = 1u << 5,  // both pid and tid present
  // ts / dur was written as a JSON integer ("dur": 5, not 5.0): Python's json keeps such
  // values as ints, which changes how TraceLens prints numbers derived from them.
  kTsInteger = 1u << 6,
  kDurInteger = 1u << 7,
  kHasDetail = 1u << 8,  // the event has a detail record (args or ids)
};

// Core per-event record (40 bytes). Absent integers are kNoValue, absent strings kNoString.
struct Event {
  std::int64_t ts_ns = kNoValue;
  std::int64_t dur_ns = kNoValue;
  StringId name = kNoString;
  StringId cat = kNoString;         // raw `cat` string (interned)
  std::uint32_t thread = kNoIndex;  // index into threads()
  // Arena address of the detail record (when flags has kHasDetail): low 32 bits + high 16.
  std::uint32_t detail = 0;
  Category category = Category::kNone;
  Phase phase = Phase::kNone;
  std::uint16_t flags = 0;
  std::uint16_t detail_hi = 0;
  std::uint64_t detail_address() const {
    return static_cast<std::uint64_t>(detail) | (static_cast<std::uint64_t>(detail_hi) << 32);
  }
};

static_assert(sizeof(Event) == 40);

// Ids the tree needs, plus where the event's remaining args are (kNoValue when absent).
// Decoded on demand from the compact (varint) record of the event.
struct EventDetail {
  std::int64_t correlation = kNoValue;  // args.correlation
  std::int64_t external_id = kNoValue;  // args["External id"]
  std::int64_t sequence = kNoValue;     // args["Sequence number"]
  std::int64_t flow_id = kNoValue;      // top-level `id` (flow events)
  std::uint64_t args_offset = 0;        // arena address of the encoded args
  std::uint32_t args_count = 0;
};

// A remaining args entry. `value` is either a small non-negative integer stored inline
// (kInlineIntBit set) or the StringId of the value's compact JSON text.
struct ArgPair {
  static constexpr std::uint32_t kInlineIntBit = 0x80000000u;
  StringId key = kNoString;
  std::uint32_t value = 0;
  bool is_inline_int() const { return (value & kInlineIntBit) != 0; }
  std::int64_t inline_int() const { return static_cast<std::int64_t>(value & ~kInlineIntBit); }
};

// An event added to a loaded model (pseudo ops, docs/contracts/trace_model.md §2.10): it takes
// the next UID, as an event appended to TraceLens's event list does.
struct AddedEvent {
  std::string name;
  std::string cat = "cpu_op";
  std::uint32_t thread = kNoIndex;  // (pid, tid) of an existing event, or none
  Uid time_of = kNoUid;             // ts and dur copied from this event (none when kNoUid)
  std::int64_t correlation = kNoValue;
  std::int64_t external_id = kNoValue;
  std::int64_t sequence = kNoValue;
  // The remaining args in order: key and the value's compact JSON text.
  std::vector<std::pair<std::string, std::string>> args;
};

class TraceModel {
 public:
  std::size_t event_count() const { return events_.size(); }
  const Event& event(Uid uid) const { return events_[uid]; }
  // The event's ids and args location; nullopt when it has neither args nor ids.
  std::optional<EventDetail> detail(Uid uid) const;
  std::string_view str(StringId id) const {
    return id == kNoString ? std::string_view() : strings_.view(id);
  }
  std::string_view name(Uid uid) const { return str(events_[uid].name); }
  const StringPool& strings() const { return strings_; }

  const std::vector<ThreadInfo>& threads() const { return threads_; }
  // The thread index of (pid, tid), if the trace mentions it.
  std::optional<std::uint32_t> find_thread(const ThreadKey& key) const;
  // TraceLens's lookups (§1.7): process_name / process_labels come from (pid, tid 0).
  std::string_view process_name(std::uint32_t thread) const;
  std::string_view process_label(std::uint32_t thread) const;
  std::string_view thread_name(std::uint32_t thread) const;
  std::string id_text(const IdValue& v) const;  // "7" or "Spans"

  // Remaining args of an event (value text via arg_value_text).
  std::vector<ArgPair> args(Uid uid) const;
  std::string arg_value_text(const ArgPair& pair) const;  // compact JSON text of the value
  std::optional<std::string> arg_text(Uid uid, std::string_view key) const;
  // The first arg of that key, read in place (no allocation).
  std::optional<ArgPair> find_arg(Uid uid, std::string_view key) const;
  // The first arg of that key as an integer: its value text is a whole int64 literal; nullopt
  // when absent or not one.
  std::optional<std::int64_t> int_arg(Uid uid, std::string_view key) const;
  // An arg's value as int_arg reads it.
  std::optional<std::int64_t> int_value(const ArgPair& pair) const;

  // Whether ts / dur was written as a JSON integer literal (see kTsInteger).
  bool ts_is_integer(Uid uid) const { return (events_[uid].flags & kTsInteger) != 0; }
  bool dur_is_integer(Uid uid) const { return (events_[uid].flags & kDurInteger) != 0; }

  // Exact double of a fallback time (TraceLens parity), else ns / 1000.0.
  double ts_us(Uid uid) const;
  double dur_us(Uid uid) const;

  // Top-level keys other than traceEvents, each as compact JSON text, in file order.
  const std::vector<std::pair<std::string, std::string>>& trace_metadata() const {
    return metadata_;
  }
  const std::string* trace_metadata_value(std::string_view key) const;
  // deviceProperties[].name, in file order (empty when the trace has none).
  std::vector<std::string> device_names() const;

  std::uint64_t events_in_category(Category c) const {
    return category_counts_[static_cast<int>(c)];
  }
  // Count of events whose raw `cat` is exactly `cat` (for TraceLens's gpu_only test, §2.9).
  std::uint64_t events_with_cat_string(std::string_view cat) const;

  // Appends a complete (`ph` X) event; returns its UID (the event count before the call).
  Uid add_event(const AddedEvent& added);

  const TraceDiagnostics& diagnostics() const { return diagnostics_; }
  TraceDiagnostics& diagnostics() { return diagnostics_; }
  std::size_t memory_bytes() const;

 private:
  friend class TraceModelBuilder;
  friend std::size_t normalize_op_names(TraceModel& model);

  SegmentedVector<Event> events_;
  DetailArena details_;
  StringPool strings_;
  std::vector<ThreadInfo> threads_;
  std::unordered_map<Uid, double> ts_fallback_;
  std::unordered_map<Uid, double> dur_fallback_;
  std::vector<std::pair<std::string, std::string>> metadata_;
  std::uint64_t category_counts_[kCategoryCount] = {};
  std::vector<std::uint64_t> cat_string_counts_;  // indexed by the cat StringId
  TraceDiagnostics diagnostics_;
};

}  // namespace loupe::core::trace
