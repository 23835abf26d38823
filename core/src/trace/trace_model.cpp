#include "loupe/core/trace/trace_model.hpp"

#include <rapidjson/document.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <string>

#include "varint.hpp"

namespace loupe::core::trace {

namespace {

constexpr std::array<std::string_view, kCategoryCount> kCategoryNames = {"(none)",
                                                                         "cpu_op",
                                                                         "python_function",
                                                                         "cuda_runtime",
                                                                         "cuda_driver",
                                                                         "kernel",
                                                                         "gpu_memcpy",
                                                                         "gpu_memset",
                                                                         "ac2g",
                                                                         "fwdbwd",
                                                                         "user_annotation",
                                                                         "gpu_user_annotation",
                                                                         "cpu_instant_event",
                                                                         "Trace",
                                                                         "overhead",
                                                                         "other"};

}  // namespace

std::string_view category_name(Category c) { return kCategoryNames[static_cast<int>(c)]; }

Category category_from_string(std::string_view cat) {
  for (int i = 1; i < kCategoryCount - 1; ++i) {
    if (kCategoryNames[static_cast<std::size_t>(i)] == cat) return static_cast<Category>(i);
  }
  return Category::kOther;
}

Phase phase_from_string(std::string_view ph) {
  if (ph.size() == 1) {
    switch (ph[0]) {
      case 'X':
        return Phase::kComplete;
      case 'i':
        return Phase::kInstant;
      case 's':
        return Phase::kFlowStart;
      case 'f':
        return Phase::kFlowEnd;
      case 'M':
        return Phase::kMetadata;
      default:
        break;
    }
  }
  return Phase::kOther;
}

std::string_view phase_name(Phase p) {
  switch (p) {
    case Phase::kNone:
      return "(none)";
    case Phase::kComplete:
      return "X";
    case Phase::kInstant:
      return "i";
    case Phase::kFlowStart:
      return "s";
    case Phase::kFlowEnd:
      return "f";
    case Phase::kMetadata:
      return "M";
    case Phase::kOther:
      return "other";
  }
  return "other";
}

std::optional<std::uint32_t> TraceModel::find_thread(const ThreadKey& key) const {
  for (std::uint32_t i = 0; i < threads_.size(); ++i) {
    if (threads_[i].key == key) return i;
  }
  return std::nullopt;
}

std::string_view TraceModel::process_name(std::uint32_t thread) const {
  const auto t = find_thread(ThreadKey{threads_.at(thread).key.pid, IdValue{false, 0}});
  if (!t || threads_[*t].process_name == kNoString) return "Unknown";
  return str(threads_[*t].process_name);
}

std::string_view TraceModel::process_label(std::uint32_t thread) const {
  const auto t = find_thread(ThreadKey{threads_.at(thread).key.pid, IdValue{false, 0}});
  if (!t || threads_[*t].process_labels == kNoString) return "Unknown";
  return str(threads_[*t].process_labels);
}

std::string_view TraceModel::thread_name(std::uint32_t thread) const {
  const auto id = threads_.at(thread).thread_name;
  return id == kNoString ? std::string_view("Unknown") : str(id);
}

std::string TraceModel::id_text(const IdValue& v) const {
  if (v.is_string) return std::string(str(static_cast<StringId>(v.value)));
  return std::to_string(v.value);
}

// Detail record: a presence byte (bit 0 correlation, 1 external id, 2 sequence, 3 flow id),
// the present ids as zigzag varints, the args count, then per arg the key's StringId and the
// value (inline int << 1 | 1, or StringId << 1), all varints.
std::optional<EventDetail> TraceModel::detail(Uid uid) const {
  const Event& e = events_[uid];
  if ((e.flags & kHasDetail) == 0) return std::nullopt;
  const std::uint64_t address = e.detail_address();
  const std::uint8_t* start = details_.at(address);
  const std::uint8_t* p = start;
  const std::uint8_t present = *p++;
  EventDetail d;
  if ((present & 1) != 0) d.correlation = unzigzag(get_varint(p));
  if ((present & 2) != 0) d.external_id = unzigzag(get_varint(p));
  if ((present & 4) != 0) d.sequence = unzigzag(get_varint(p));
  if ((present & 8) != 0) d.flow_id = unzigzag(get_varint(p));
  d.args_count = static_cast<std::uint32_t>(get_varint(p));
  d.args_offset = address + static_cast<std::uint64_t>(p - start);
  return d;
}

std::vector<ArgPair> TraceModel::args(Uid uid) const {
  std::vector<ArgPair> out;
  const auto d = detail(uid);
  if (!d) return out;
  out.reserve(d->args_count);
  const std::uint8_t* p = details_.at(d->args_offset);
  for (std::uint32_t i = 0; i < d->args_count; ++i) {
    ArgPair pair;
    pair.key = static_cast<StringId>(get_varint(p));
    const std::uint64_t v = get_varint(p);
    pair.value = (v & 1) != 0 ? static_cast<std::uint32_t>(v >> 1) | ArgPair::kInlineIntBit
                              : static_cast<std::uint32_t>(v >> 1);
    out.push_back(pair);
  }
  return out;
}

std::string TraceModel::arg_value_text(const ArgPair& pair) const {
  if (pair.is_inline_int()) return std::to_string(pair.inline_int());
  return std::string(str(pair.value));
}

std::optional<ArgPair> TraceModel::find_arg(Uid uid, std::string_view key) const {
  const auto d = detail(uid);
  if (!d) return std::nullopt;
  const std::uint8_t* p = details_.at(d->args_offset);
  for (std::uint32_t i = 0; i < d->args_count; ++i) {
    ArgPair pair;
    pair.key = static_cast<StringId>(get_varint(p));
    const std::uint64_t v = get_varint(p);
    if (str(pair.key) != key) continue;
    pair.value = (v & 1) != 0 ? static_cast<std::uint32_t>(v >> 1) | ArgPair::kInlineIntBit
                              : static_cast<std::uint32_t>(v >> 1);
    return pair;
  }
  return std::nullopt;
}

std::optional<std::string> TraceModel::arg_text(Uid uid, std::string_view key) const {
  const auto pair = find_arg(uid, key);
  if (!pair) return std::nullopt;
  return arg_value_text(*pair);
}

std::optional<std::int64_t> TraceModel::int_arg(Uid uid, std::string_view key) const {
  const auto pair = find_arg(uid, key);
  return pair ? int_value(*pair) : std::nullopt;
}

std::optional<std::int64_t> TraceModel::int_value(const ArgPair& pair) const {
  if (pair.is_inline_int()) return pair.inline_int();
  const std::string_view text = str(pair.value);
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

Uid TraceModel::add_event(const AddedEvent& added) {
  const auto uid = static_cast<Uid>(events_.size());
  Event e;
  e.name = strings_.intern(added.name);
  e.cat = strings_.intern(added.cat);
  e.category = category_from_string(added.cat);
  e.phase = Phase::kComplete;
  e.thread = added.thread;
  if (added.thread != kNoIndex) e.flags |= kHasThread;
  if (added.time_of != kNoUid) {
    const Event& from = events_[added.time_of];
    constexpr std::uint16_t kTimeFlags =
        kHasTs | kHasDur | kTsFallback | kDurFallback | kTsInteger | kDurInteger;
    e.ts_ns = from.ts_ns;
    e.dur_ns = from.dur_ns;
    e.flags |= static_cast<std::uint16_t>(from.flags & kTimeFlags);
    if ((from.flags & kTsFallback) != 0) ts_fallback_[uid] = ts_fallback_.at(added.time_of);
    if ((from.flags & kDurFallback) != 0) dur_fallback_[uid] = dur_fallback_.at(added.time_of);
  }
  // Detail record as the reader writes it (encoding: TraceModel::detail above).
  std::vector<std::uint8_t> record;
  record.push_back(static_cast<std::uint8_t>((added.correlation != kNoValue ? 1 : 0) |
                                             (added.external_id != kNoValue ? 2 : 0) |
                                             (added.sequence != kNoValue ? 4 : 0)));
  if (added.correlation != kNoValue) put_varint(record, zigzag(added.correlation));
  if (added.external_id != kNoValue) put_varint(record, zigzag(added.external_id));
  if (added.sequence != kNoValue) put_varint(record, zigzag(added.sequence));
  put_varint(record, added.args.size());
  for (const auto& [key, text] : added.args) {
    put_varint(record, strings_.intern(key));
    // Small non-negative integers inline, as the reader stores them.
    const bool small_int =
        !text.empty() && text.size() <= 9 && (text.size() == 1 || text[0] != '0') &&
        std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (small_int) {
      put_varint(record, (std::stoull(text) << 1) | 1);
    } else {
      put_varint(record, static_cast<std::uint64_t>(strings_.intern(text)) << 1);
    }
  }
  const std::uint64_t address = details_.append(record.data(), record.size());
  e.detail = static_cast<std::uint32_t>(address);
  e.detail_hi = static_cast<std::uint16_t>(address >> 32);
  e.flags |= kHasDetail;
  e.flags |= kHasArgs;  // an args object, as every added op has
  ++category_counts_[static_cast<int>(e.category)];
  if (cat_string_counts_.size() <= e.cat) cat_string_counts_.resize(e.cat + 1u, 0);
  ++cat_string_counts_[e.cat];
  events_.push_back(e);
  return uid;
}

double TraceModel::ts_us(Uid uid) const {
  const Event& e = events_[uid];
  if ((e.flags & kTsFallback) != 0) return ts_fallback_.at(uid);
  return static_cast<double>(e.ts_ns) / 1000.0;
}

double TraceModel::dur_us(Uid uid) const {
  const Event& e = events_[uid];
  if ((e.flags & kDurFallback) != 0) return dur_fallback_.at(uid);
  return static_cast<double>(e.dur_ns) / 1000.0;
}

const std::string* TraceModel::trace_metadata_value(std::string_view key) const {
  const std::string* found = nullptr;
  for (const auto& [k, v] : metadata_) {
    if (k == key) found = &v;  // a repeated key resolves to the last one
  }
  return found;
}

std::uint64_t TraceModel::events_with_cat_string(std::string_view cat) const {
  const StringId id = strings_.find(cat);
  if (id == kNoString) return 0;
  return id < cat_string_counts_.size() ? cat_string_counts_[id] : 0;
}

std::size_t TraceModel::memory_bytes() const {
  return events_.memory_bytes() + details_.memory_bytes() + strings_.memory_bytes() +
         (ts_fallback_.size() + dur_fallback_.size()) * 32;
}

const char* warning_description(Warning w) {
  switch (w) {
    case Warning::kEventWithoutPhase:
      return "events without ph";
    case Warning::kNonObjectEvent:
      return "traceEvents elements that are not objects";
    case Warning::kNonFiniteNumber:
      return "NaN/Infinity ts or dur (treated as absent)";
    case Warning::kIntegerOutOfRange:
      return "integers beyond int64 (treated as absent)";
    case Warning::kPrecisionFallback:
      return "ts/dur with more than 3 decimals or an exponent";
    case Warning::kInvalidUtf8:
      return "strings with invalid UTF-8 (replaced by U+FFFD)";
    case Warning::kBadFieldType:
      return "fields of an unexpected JSON type (treated as absent)";
    case Warning::kNegativeDuration:
      return "negative dur (treated as absent)";
    case Warning::kHostEventWithoutTime:
      return "host events without ts/dur (left out of the tree)";
    case Warning::kFlowWithoutId:
      return "ac2g flow events without id (ignored)";
    case Warning::kTrailingGzipData:
      return "bytes after the last gzip member (ignored)";
    case Warning::kUnknownPhase:
      return "events with an unknown ph";
    case Warning::kCount:
      break;
  }
  return "?";
}

void TraceDiagnostics::warn(Warning w, std::uint64_t offset, const std::string& what) {
  auto& n = warnings[static_cast<int>(w)];
  if (n == 0 && samples.size() < 32) {
    samples.push_back("byte " + std::to_string(offset) + ": " + what);
    sample_kinds.push_back(w);
  }
  ++n;
}

std::uint64_t TraceDiagnostics::total() const {
  std::uint64_t t = 0;
  for (auto n : warnings) t += n;
  return t;
}

}  // namespace loupe::core::trace

namespace loupe::core::trace {

std::vector<std::string> TraceModel::device_names() const {
  std::vector<std::string> names;
  const std::string* props = trace_metadata_value("deviceProperties");
  if (props == nullptr) return names;
  rapidjson::Document doc;
  doc.Parse(props->c_str());
  if (doc.HasParseError() || !doc.IsArray()) return names;
  for (const auto& d : doc.GetArray()) {
    if (d.IsObject() && d.HasMember("name") && d["name"].IsString()) {
      names.emplace_back(d["name"].GetString(), d["name"].GetStringLength());
    }
  }
  return names;
}

}  // namespace loupe::core::trace
