// RapidJSON SAX handler that turns the trace's JSON events into a TraceModel, one event at a
// time (a reusable scratch record committed on the event's closing brace).
#pragma once

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::trace {

class TraceModelBuilder {
 public:
  // `offset` reports the reader's current byte offset (for warnings).
  TraceModelBuilder(TraceModel& model, std::function<std::uint64_t()> offset);

  // RapidJSON handler interface.
  bool Null();
  bool Bool(bool b);
  bool Int(int) { return false; }  // numbers arrive as RawNumber (kParseNumbersAsStringsFlag)
  bool Uint(unsigned) { return false; }
  bool Int64(std::int64_t) { return false; }
  bool Uint64(std::uint64_t) { return false; }
  bool Double(double) { return false; }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool copy);
  bool String(const char* str, rapidjson::SizeType length, bool copy);
  bool StartObject();
  // Counts one more open container; false (with the fatal message) past kMaxJsonDepth.
  bool enter_container();
  // The string itself, or (with a warning) a copy with invalid UTF-8 replaced by U+FFFD.
  std::string_view repaired_utf8(std::string_view s);
  bool Key(const char* str, rapidjson::SizeType length, bool copy);
  bool EndObject(rapidjson::SizeType count);
  bool StartArray();
  bool EndArray(rapidjson::SizeType count);

  bool saw_trace_events() const { return saw_trace_events_; }

  // Parallel parse (parallel_event_reader.hpp). A block builder starts inside the traceEvents
  // array, at the main builder's nesting depth, and fills its own model; the main builder then
  // appends the blocks' models in file order, so that its model is exactly the one a single
  // pass would have built (same string ids, thread order, warnings and samples).
  void start_in_event_array(std::size_t nesting) {
    ctx_ = Ctx::kEvents;
    saw_trace_events_ = true;
    nesting_ = nesting;
  }
  std::size_t nesting() const { return nesting_; }
  // Appends the events `block` read (trace_model_merge.cpp).
  void append_block(const TraceModelBuilder& block);
  // Empties a block's model for the next block, keeping its first blocks of memory (so that
  // workers do not grow and trim fresh heaps for every block; trace_model_merge.cpp).
  static void clear_for_reuse(TraceModel& model);
  bool top_is_array() const { return top_is_array_; }

  // Fast-path hand-off (json_reader.cpp): when set, the handler stops the parse right after
  // the `[` of traceEvents (RapidJSON reports kParseErrorTermination) so that the elements can
  // be read by the event tokenizer; take_pause() says whether that is why the parse stopped.
  void set_pause_at_events(bool pause) { pause_at_events_ = pause; }
  bool take_pause() {
    const bool paused = paused_;
    paused_ = false;
    return paused;
  }
  // Resumes the top-level object after the traceEvents array: the reader then parses the
  // synthetic prefix `{"":0` followed by the rest of the file, and the synthetic member is
  // dropped.
  void resume_top_object() {
    ctx_ = Ctx::kTop;
    skip_top_meta_ = true;
  }
  // Why the handler stopped the parse (empty if it did not).
  const std::string& fatal_message() const { return fatal_message_; }
  bool in_event() const { return ctx_ == Ctx::kEvent || ctx_ == Ctx::kArgs || capture_depth_ > 0; }

 private:
  enum class Ctx : std::uint8_t { kTop, kTopObject, kEvents, kEvent, kArgs, kDone };
  // The ThreadInfo fields an `M` event assigned (bits of thread_meta_assigned_).
  enum class ThreadMetaField : std::uint8_t {
    kNone = 0,
    kProcessName = 1,
    kThreadName = 2,
    kProcessLabels = 4,
    kProcessSortIndex = 8,
    kThreadSortIndex = 16,
  };
  enum class Field : std::uint8_t { kPh, kCat, kName, kPid, kTid, kTs, kDur, kId, kArgs, kOther };
  enum class Capture : std::uint8_t { kNone, kTopMeta, kArg, kDiscard, kNonObjectEvent };
  enum class ArgKey : std::uint8_t {
    kCorrelation,
    kExternalId,
    kSequence,
    kMetaName,
    kMetaLabels,
    kSortIndex,
    kGeneric
  };

  struct Scratch {
    Phase phase = Phase::kNone;
    bool has_phase = false;
    StringId name = kNoString;
    StringId cat = kNoString;
    IdValue pid, tid;
    bool has_pid = false, has_tid = false;
    std::int64_t ts_ns = kNoValue, dur_ns = kNoValue;
    double ts_fallback = 0, dur_fallback = 0;
    std::uint16_t flags = 0;
    std::int64_t flow_id = kNoValue;
    std::int64_t correlation = kNoValue, external_id = kNoValue, sequence = kNoValue;
    std::int64_t sort_index = kNoValue;
    StringId meta_name = kNoString, meta_labels = kNoString;
    std::vector<ArgPair> pairs;
    std::uint64_t start_offset = 0;
  };

  // Scalar or finished-capture value delivered to the current context.
  bool scalar_value();
  void begin_event();
  void commit_event();
  void commit_non_object_event();
  void on_event_string(std::string_view s);
  void on_event_number(std::string_view text);
  void on_arg_string(std::string_view s);
  void on_arg_number(std::string_view text);
  void on_arg_literal(std::string_view json);
  void finish_capture();
  void start_capture(Capture kind);
  bool capturing() const { return capture_depth_ > 0; }
  void add_pair(StringId value_id);
  std::uint32_t thread_index(const IdValue& pid, const IdValue& tid);
  bool parse_time(std::string_view text, std::int64_t& ns, double& fallback, bool& used_fallback);
  bool parse_int(std::string_view text, std::int64_t& out);
  void warn(Warning w, const std::string& what);

  TraceModel& model_;
  std::function<std::uint64_t()> offset_;
  Ctx ctx_ = Ctx::kTop;
  bool top_is_array_ = false;
  bool saw_trace_events_ = false;
  bool pause_at_events_ = false;
  bool paused_ = false;
  bool skip_top_meta_ = false;
  std::string pending_top_key_;
  Field field_ = Field::kOther;
  ArgKey arg_key_ = ArgKey::kGeneric;
  StringId arg_key_id_ = kNoString;
  Scratch ev_;

  Capture capture_ = Capture::kNone;
  int capture_depth_ = 0;
  std::size_t nesting_ = 0;  // open arrays and objects, at most kMaxJsonDepth
  std::string repaired_;     // the last string whose invalid UTF-8 was replaced
  rapidjson::StringBuffer capture_buffer_;
  rapidjson::Writer<rapidjson::StringBuffer> capture_writer_;

  struct ThreadKeyHash {
    std::size_t operator()(const ThreadKey& k) const {
      // Unsigned arithmetic: ids near INT64_MAX must wrap, not overflow.
      const auto mixed = static_cast<std::uint64_t>(k.pid.value) * 1000003u +
                         static_cast<std::uint64_t>(k.tid.value);
      return std::hash<std::uint64_t>()(mixed) ^ (k.pid.is_string ? 0x9e37 : 0) ^
             (k.tid.is_string ? 0x79b9 : 0);
    }
  };
  std::unordered_map<ThreadKey, std::uint32_t, ThreadKeyHash> thread_index_;
  std::uint32_t last_thread_ = kNoIndex;
  std::vector<std::uint8_t> cat_cache_;  // StringId -> Category (0xFF = not yet mapped)
  // Per thread index: the ThreadMetaField bits some `M` event assigned (last one wins).
  std::vector<std::uint8_t> thread_meta_assigned_;
  std::string escaped_;
  std::vector<std::uint8_t> record_;  // the detail record being encoded
  std::string fatal_message_;
};

}  // namespace loupe::core::trace
