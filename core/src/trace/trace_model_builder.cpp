#include "trace_model_builder.hpp"

#include "loupe/core/util/json_guards.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "utf8_check.hpp"
#include "varint.hpp"

namespace loupe::core::trace {

namespace {

bool equals(const char* s, rapidjson::SizeType n, std::string_view lit) {
  return n == lit.size() && std::memcmp(s, lit.data(), n) == 0;
}

// JSON string literal of `s` with RapidJSON's escaping (quotes, backslash, control chars).
void json_quote(std::string_view s, std::string& out) {
  static const char kHex[] = "0123456789ABCDEF";
  out.clear();
  out.push_back('"');
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c < 0x20) {
      out.push_back('\\');
      switch (c) {
        case '\b':
          out.push_back('b');
          break;
        case '\f':
          out.push_back('f');
          break;
        case '\n':
          out.push_back('n');
          break;
        case '\r':
          out.push_back('r');
          break;
        case '\t':
          out.push_back('t');
          break;
        default:
          out += "u00";
          out.push_back(kHex[c >> 4]);
          out.push_back(kHex[c & 15]);
      }
    } else {
      out.push_back(ch);
    }
  }
  out.push_back('"');
}

}  // namespace

TraceModelBuilder::TraceModelBuilder(TraceModel& model, std::function<std::uint64_t()> offset)
    : model_(model), offset_(std::move(offset)), capture_writer_(capture_buffer_) {}

void TraceModelBuilder::warn(Warning w, const std::string& what) {
  model_.diagnostics_.warn(w, offset_(), what);
}

std::string_view TraceModelBuilder::repaired_utf8(std::string_view s) {
  if (is_valid_utf8(s)) return s;
  warn(Warning::kInvalidUtf8, "invalid UTF-8 in a string (replaced by U+FFFD)");
  repaired_ = replace_invalid_utf8(s);
  return repaired_;
}

bool TraceModelBuilder::parse_int(std::string_view text, std::int64_t& out) {
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec == std::errc() && ptr == text.data() + text.size()) return true;
  if (ec == std::errc::result_out_of_range) {
    warn(Warning::kIntegerOutOfRange,
         "integer " + std::string(text.substr(0, 40)) + " beyond int64");
    return false;
  }
  // A number such as 5.0 or 1e3: accept when it is an exact integer (Python compares 5.0 == 5).
  const std::string copy(text);
  char* end = nullptr;
  const double d = std::strtod(copy.c_str(), &end);
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9.2e18) {
    out = static_cast<std::int64_t>(d);
    return true;
  }
  if (!std::isfinite(d)) {
    warn(Warning::kNonFiniteNumber,
         "non-finite number " + copy + " where an integer id was expected");
  } else {
    warn(Warning::kBadFieldType,
         "non-integer " + copy.substr(0, 40) + " where an integer id was expected");
  }
  return false;
}

bool TraceModelBuilder::parse_time(std::string_view text, std::int64_t& ns, double& fallback,
                                   bool& used_fallback) {
  // Fast path: -?digits(.d{0,3})? -> exact integer nanoseconds.
  used_fallback = false;
  std::size_t i = 0;
  const bool negative = !text.empty() && text[0] == '-';
  if (negative) ++i;
  std::int64_t whole = 0;
  std::size_t digits = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9' && digits < 15) {
    whole = whole * 10 + (text[i] - '0');
    ++i;
    ++digits;
  }
  if (digits > 0) {
    std::int64_t frac = 0;
    int frac_digits = 0;
    bool ok = true;
    if (i < text.size() && text[i] == '.') {
      ++i;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9' && frac_digits < 3) {
        frac = frac * 10 + (text[i] - '0');
        ++i;
        ++frac_digits;
      }
      ok = frac_digits > 0;
    }
    if (ok && i == text.size()) {
      for (int k = frac_digits; k < 3; ++k) frac *= 10;
      ns = whole * 1000 + frac;
      if (negative) ns = -ns;
      return true;
    }
  }
  // Fallback: correctly rounded double, kept for TraceLens parity; ns rounded from it.
  const std::string copy(text);
  const double d = std::strtod(copy.c_str(), nullptr);
  if (!std::isfinite(d)) {
    warn(Warning::kNonFiniteNumber, "non-finite time value " + copy.substr(0, 40));
    return false;
  }
  if (std::fabs(d) * 1000.0 >= 9.2e18) {
    warn(Warning::kIntegerOutOfRange,
         "time value " + copy.substr(0, 40) + " beyond int64 nanoseconds");
    return false;
  }
  ns = std::llround(d * 1000.0);
  fallback = d;
  used_fallback = true;
  warn(Warning::kPrecisionFallback,
       "time value " + copy.substr(0, 40) + " has more than 3 decimals or an exponent");
  return true;
}

std::uint32_t TraceModelBuilder::thread_index(const IdValue& pid, const IdValue& tid) {
  const ThreadKey key{pid, tid};
  if (last_thread_ != kNoIndex && model_.threads_[last_thread_].key == key) return last_thread_;
  const auto [it, inserted] =
      thread_index_.try_emplace(key, static_cast<std::uint32_t>(model_.threads_.size()));
  if (inserted) {
    ThreadInfo info;
    info.key = key;
    model_.threads_.push_back(info);
  }
  last_thread_ = it->second;
  return it->second;
}

// ---- captures (values kept as compact JSON text, or skipped) ----

void TraceModelBuilder::start_capture(Capture kind) {
  capture_ = kind;
  capture_depth_ = 0;
  capture_buffer_.Clear();
  capture_writer_.Reset(capture_buffer_);
}

void TraceModelBuilder::finish_capture() {
  const Capture kind = capture_;
  capture_ = Capture::kNone;
  const std::string_view text(capture_buffer_.GetString(), capture_buffer_.GetSize());
  switch (kind) {
    case Capture::kTopMeta:
      if (skip_top_meta_) {
        skip_top_meta_ = false;
        break;
      }
      model_.metadata_.emplace_back(pending_top_key_, std::string(text));
      break;
    case Capture::kArg:
      add_pair(model_.strings_.intern(text));
      break;
    case Capture::kNonObjectEvent:
      commit_non_object_event();
      break;
    case Capture::kDiscard:
    case Capture::kNone:
      break;
  }
}

#define LOUPE_FORWARD_CAPTURE(call, depth_change)                              \
  if (capture_ != Capture::kNone) {                                            \
    if (capture_ != Capture::kDiscard && capture_ != Capture::kNonObjectEvent) \
      capture_writer_.call;                                                    \
    capture_depth_ += (depth_change);                                          \
    if (capture_depth_ == 0) finish_capture();                                 \
    return true;                                                               \
  }

// ---- scalars ----

bool TraceModelBuilder::Null() {
  LOUPE_FORWARD_CAPTURE(Null(), 0)
  switch (ctx_) {
    case Ctx::kTopObject:
      start_capture(Capture::kTopMeta);
      capture_writer_.Null();
      finish_capture();
      return true;
    case Ctx::kEvents:
      commit_non_object_event();
      return true;
    case Ctx::kEvent:
      if (field_ == Field::kOther) return true;
      if (field_ == Field::kArgs)
        warn(Warning::kBadFieldType, "args is null");
      else
        warn(Warning::kBadFieldType, "event field is null");
      return true;
    case Ctx::kArgs:
      on_arg_literal("null");
      return true;
    default:
      fatal_message_ = "the top-level value is not an object or array";
      return false;
  }
}

bool TraceModelBuilder::Bool(bool b) {
  LOUPE_FORWARD_CAPTURE(Bool(b), 0)
  switch (ctx_) {
    case Ctx::kTopObject:
      start_capture(Capture::kTopMeta);
      capture_writer_.Bool(b);
      finish_capture();
      return true;
    case Ctx::kEvents:
      commit_non_object_event();
      return true;
    case Ctx::kEvent:
      if (field_ != Field::kOther) warn(Warning::kBadFieldType, "event field is a boolean");
      return true;
    case Ctx::kArgs:
      on_arg_literal(b ? "true" : "false");
      return true;
    default:
      fatal_message_ = "the top-level value is not an object or array";
      return false;
  }
}

bool TraceModelBuilder::RawNumber(const char* str, rapidjson::SizeType length, bool copy) {
  (void)copy;
  // RapidJSON 1.1.0's Writer::RawNumber quotes the digits; RawValue writes them verbatim.
  LOUPE_FORWARD_CAPTURE(RawValue(str, length, rapidjson::kNumberType), 0)
  const std::string_view text(str, length);
  switch (ctx_) {
    case Ctx::kTopObject:
      start_capture(Capture::kTopMeta);
      capture_writer_.RawValue(str, length, rapidjson::kNumberType);
      finish_capture();
      return true;
    case Ctx::kEvents:
      commit_non_object_event();
      return true;
    case Ctx::kEvent:
      on_event_number(text);
      return true;
    case Ctx::kArgs:
      on_arg_number(text);
      return true;
    default:
      fatal_message_ = "the top-level value is not an object or array";
      return false;
  }
}

bool TraceModelBuilder::String(const char* str, rapidjson::SizeType length, bool copy) {
  // Every string of the trace is valid UTF-8 from here on, so no output can carry bad bytes.
  const std::string_view text = repaired_utf8({str, length});
  if (text.data() != str) {
    str = text.data();
    length = static_cast<rapidjson::SizeType>(text.size());
    copy = true;
  }
  LOUPE_FORWARD_CAPTURE(String(str, length, copy), 0)
  switch (ctx_) {
    case Ctx::kTopObject:
      start_capture(Capture::kTopMeta);
      capture_writer_.String(str, length, copy);
      finish_capture();
      return true;
    case Ctx::kEvents:
      commit_non_object_event();
      return true;
    case Ctx::kEvent:
      on_event_string(text);
      return true;
    case Ctx::kArgs:
      on_arg_string(text);
      return true;
    default:
      fatal_message_ = "the top-level value is not an object or array";
      return false;
  }
}

// ---- containers ----

bool TraceModelBuilder::enter_container() {
  if (++nesting_ <= kMaxJsonDepth) return true;
  fatal_message_ = "arrays and objects nest deeper than " + std::to_string(kMaxJsonDepth) +
                   " levels (the limit for any JSON Loupe reads)";
  return false;
}

bool TraceModelBuilder::StartObject() {
  if (!enter_container()) return false;
  LOUPE_FORWARD_CAPTURE(StartObject(), 1)
  switch (ctx_) {
    case Ctx::kTop:
      ctx_ = Ctx::kTopObject;
      return true;
    case Ctx::kTopObject:
      start_capture(Capture::kTopMeta);
      capture_writer_.StartObject();
      capture_depth_ = 1;
      return true;
    case Ctx::kEvents:
      begin_event();
      ctx_ = Ctx::kEvent;
      return true;
    case Ctx::kEvent:
      if (field_ == Field::kArgs) {
        ev_.flags |= kHasArgs;
        ctx_ = Ctx::kArgs;
      } else {
        start_capture(Capture::kDiscard);
        capture_depth_ = 1;
      }
      return true;
    case Ctx::kArgs:
      start_capture(Capture::kArg);
      capture_writer_.StartObject();
      capture_depth_ = 1;
      return true;
    case Ctx::kDone:
      return true;
  }
  return true;
}

bool TraceModelBuilder::Key(const char* str, rapidjson::SizeType length, bool copy) {
  if (const std::string_view key = repaired_utf8({str, length}); key.data() != str) {
    str = key.data();
    length = static_cast<rapidjson::SizeType>(key.size());
    copy = true;
  }
  LOUPE_FORWARD_CAPTURE(Key(str, length, copy), 0)
  switch (ctx_) {
    case Ctx::kTopObject:
      pending_top_key_.assign(str, length);
      return true;
    case Ctx::kEvent:
      field_ = Field::kOther;
      switch (length) {
        case 2:
          if (str[0] == 'p' && str[1] == 'h')
            field_ = Field::kPh;
          else if (str[0] == 't' && str[1] == 's')
            field_ = Field::kTs;
          else if (str[0] == 'i' && str[1] == 'd')
            field_ = Field::kId;
          break;
        case 3:
          if (equals(str, length, "cat"))
            field_ = Field::kCat;
          else if (equals(str, length, "pid"))
            field_ = Field::kPid;
          else if (equals(str, length, "tid"))
            field_ = Field::kTid;
          else if (equals(str, length, "dur"))
            field_ = Field::kDur;
          break;
        case 4:
          if (equals(str, length, "name"))
            field_ = Field::kName;
          else if (equals(str, length, "args"))
            field_ = Field::kArgs;
          break;
        default:
          break;
      }
      return true;
    case Ctx::kArgs:
      arg_key_ = ArgKey::kGeneric;
      if (equals(str, length, "correlation"))
        arg_key_ = ArgKey::kCorrelation;
      else if (equals(str, length, "External id"))
        arg_key_ = ArgKey::kExternalId;
      else if (equals(str, length, "Sequence number"))
        arg_key_ = ArgKey::kSequence;
      else if (ev_.phase == Phase::kMetadata || !ev_.has_phase) {
        if (equals(str, length, "name"))
          arg_key_ = ArgKey::kMetaName;
        else if (equals(str, length, "labels"))
          arg_key_ = ArgKey::kMetaLabels;
        else if (equals(str, length, "sort_index"))
          arg_key_ = ArgKey::kSortIndex;
      }
      arg_key_id_ = arg_key_ == ArgKey::kCorrelation || arg_key_ == ArgKey::kExternalId ||
                            arg_key_ == ArgKey::kSequence
                        ? kNoString
                        : model_.strings_.intern(std::string_view(str, length));
      return true;
    default:
      return true;
  }
}

bool TraceModelBuilder::EndObject(rapidjson::SizeType count) {
  if (nesting_ > 0) --nesting_;
  LOUPE_FORWARD_CAPTURE(EndObject(count), -1)
  switch (ctx_) {
    case Ctx::kTopObject:
      ctx_ = Ctx::kDone;
      return true;
    case Ctx::kEvent:
      commit_event();
      ctx_ = Ctx::kEvents;
      return true;
    case Ctx::kArgs:
      ctx_ = Ctx::kEvent;
      field_ = Field::kOther;
      return true;
    default:
      return true;
  }
}

bool TraceModelBuilder::StartArray() {
  if (!enter_container()) return false;
  LOUPE_FORWARD_CAPTURE(StartArray(), 1)
  switch (ctx_) {
    case Ctx::kTop:
      top_is_array_ = true;
      saw_trace_events_ = true;
      ctx_ = Ctx::kEvents;
      paused_ = pause_at_events_;
      return !paused_;
    case Ctx::kTopObject:
      if (pending_top_key_ == "traceEvents") {
        saw_trace_events_ = true;
        ctx_ = Ctx::kEvents;
        paused_ = pause_at_events_;
        return !paused_;
      } else {
        start_capture(Capture::kTopMeta);
        capture_writer_.StartArray();
        capture_depth_ = 1;
      }
      return true;
    case Ctx::kEvents:
      start_capture(Capture::kNonObjectEvent);
      capture_depth_ = 1;
      return true;
    case Ctx::kEvent:
      start_capture(Capture::kDiscard);
      capture_depth_ = 1;
      if (field_ == Field::kArgs) warn(Warning::kBadFieldType, "args is an array");
      return true;
    case Ctx::kArgs:
      start_capture(Capture::kArg);
      capture_writer_.StartArray();
      capture_depth_ = 1;
      return true;
    case Ctx::kDone:
      return true;
  }
  return true;
}

bool TraceModelBuilder::EndArray(rapidjson::SizeType count) {
  if (nesting_ > 0) --nesting_;
  LOUPE_FORWARD_CAPTURE(EndArray(count), -1)
  if (ctx_ == Ctx::kEvents) ctx_ = top_is_array_ ? Ctx::kDone : Ctx::kTopObject;
  return true;
}

#undef LOUPE_FORWARD_CAPTURE

// ---- event fields ----

void TraceModelBuilder::begin_event() {
  std::vector<ArgPair> pairs = std::move(ev_.pairs);
  pairs.clear();
  ev_ = Scratch{};
  ev_.pairs = std::move(pairs);
  ev_.start_offset = offset_();
  field_ = Field::kOther;
}

void TraceModelBuilder::on_event_string(std::string_view s) {
  switch (field_) {
    case Field::kPh:
      ev_.phase = phase_from_string(s);
      ev_.has_phase = true;
      break;
    case Field::kCat:
      ev_.cat = model_.strings_.intern(s);
      break;
    case Field::kName:
      ev_.name = model_.strings_.intern(s);
      break;
    case Field::kPid:
      ev_.pid = IdValue{true, model_.strings_.intern(s)};
      ev_.has_pid = true;
      break;
    case Field::kTid:
      ev_.tid = IdValue{true, model_.strings_.intern(s)};
      ev_.has_tid = true;
      break;
    case Field::kTs:
    case Field::kDur:
    case Field::kId:
      warn(Warning::kBadFieldType, "a string where a number was expected");
      break;
    case Field::kArgs:
      warn(Warning::kBadFieldType, "args is a string");
      break;
    case Field::kOther:
      break;
  }
}

void TraceModelBuilder::on_event_number(std::string_view text) {
  switch (field_) {
    case Field::kTs:
    case Field::kDur: {
      std::int64_t ns = 0;
      double fb = 0;
      bool used_fallback = false;
      if (!parse_time(text, ns, fb, used_fallback)) break;
      bool integer_literal = true;
      for (const char c : text) integer_literal &= c != '.' && c != 'e' && c != 'E';
      if (field_ == Field::kTs) {
        ev_.ts_ns = ns;
        ev_.ts_fallback = fb;
        ev_.flags |= kHasTs;
        if (used_fallback) ev_.flags |= kTsFallback;
        if (integer_literal) ev_.flags |= kTsInteger;
      } else if (ns < 0) {
        warn(Warning::kNegativeDuration, "negative dur " + std::string(text.substr(0, 40)));
      } else {
        ev_.dur_ns = ns;
        ev_.dur_fallback = fb;
        ev_.flags |= kHasDur;
        if (used_fallback) ev_.flags |= kDurFallback;
        if (integer_literal) ev_.flags |= kDurInteger;
      }
      break;
    }
    case Field::kPid:
    case Field::kTid: {
      IdValue v;
      std::int64_t n = 0;
      const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
      if (ec == std::errc() && ptr == text.data() + text.size()) {
        v = IdValue{false, n};
      } else {
        warn(Warning::kBadFieldType,
             "pid/tid " + std::string(text.substr(0, 40)) + " is not an int64 (kept as text)");
        v = IdValue{true, model_.strings_.intern(text)};
      }
      if (field_ == Field::kPid) {
        ev_.pid = v;
        ev_.has_pid = true;
      } else {
        ev_.tid = v;
        ev_.has_tid = true;
      }
      break;
    }
    case Field::kId: {
      std::int64_t n = 0;
      if (parse_int(text, n)) ev_.flow_id = n;
      break;
    }
    case Field::kPh:
    case Field::kCat:
    case Field::kName:
      warn(Warning::kBadFieldType, "a number where a string was expected");
      break;
    case Field::kArgs:
      warn(Warning::kBadFieldType, "args is a number");
      break;
    case Field::kOther:
      break;
  }
}

void TraceModelBuilder::add_pair(StringId value_id) {
  ev_.pairs.push_back(ArgPair{arg_key_id_, value_id});
}

void TraceModelBuilder::on_arg_number(std::string_view text) {
  switch (arg_key_) {
    case ArgKey::kCorrelation: {
      std::int64_t n = 0;
      if (parse_int(text, n)) ev_.correlation = n;
      return;
    }
    case ArgKey::kExternalId: {
      std::int64_t n = 0;
      if (parse_int(text, n)) ev_.external_id = n;
      return;
    }
    case ArgKey::kSequence: {
      std::int64_t n = 0;
      if (parse_int(text, n)) ev_.sequence = n;
      return;
    }
    case ArgKey::kSortIndex: {
      std::int64_t n = 0;
      if (parse_int(text, n)) ev_.sort_index = n;
      break;
    }
    default:
      break;
  }
  // Small non-negative integers are stored inline, anything else as its text.
  if (!text.empty() && text.size() <= 9 && text[0] != '-') {
    std::uint32_t v = 0;
    bool digits = true;
    for (const char c : text) {
      if (c < '0' || c > '9') {
        digits = false;
        break;
      }
      v = v * 10 + static_cast<std::uint32_t>(c - '0');
    }
    if (digits && (text.size() == 1 || text[0] != '0')) {
      add_pair(v | ArgPair::kInlineIntBit);
      return;
    }
  }
  add_pair(model_.strings_.intern(text));
}

void TraceModelBuilder::on_arg_string(std::string_view s) {
  switch (arg_key_) {
    case ArgKey::kCorrelation:
    case ArgKey::kExternalId:
    case ArgKey::kSequence:
      warn(Warning::kBadFieldType, "a string id in args (ignored for linking)");
      return;
    case ArgKey::kMetaName:
      ev_.meta_name = model_.strings_.intern(s);
      break;
    case ArgKey::kMetaLabels:
      ev_.meta_labels = model_.strings_.intern(s);
      break;
    default:
      break;
  }
  json_quote(s, escaped_);
  add_pair(model_.strings_.intern(escaped_));
}

void TraceModelBuilder::on_arg_literal(std::string_view json) {
  if (arg_key_ == ArgKey::kCorrelation || arg_key_ == ArgKey::kExternalId ||
      arg_key_ == ArgKey::kSequence) {
    return;  // null / bool ids: absent
  }
  add_pair(model_.strings_.intern(json));
}

// ---- commit ----

void TraceModelBuilder::commit_non_object_event() {
  warn(Warning::kNonObjectEvent,
       "an element of traceEvents is not an object (kept as an empty event)");
  model_.events_.push_back(Event{});
  ++model_.category_counts_[static_cast<int>(Category::kNone)];
}

void TraceModelBuilder::commit_event() {
  const auto uid = static_cast<Uid>(model_.events_.size());
  Event e;
  e.ts_ns = ev_.ts_ns;
  e.dur_ns = ev_.dur_ns;
  e.name = ev_.name;
  e.cat = ev_.cat;
  e.flags = ev_.flags;
  if (ev_.has_phase) {
    e.phase = ev_.phase;
    if (e.phase == Phase::kOther)
      model_.diagnostics_.warn(Warning::kUnknownPhase, ev_.start_offset, "unknown ph");
  } else {
    model_.diagnostics_.warn(Warning::kEventWithoutPhase, ev_.start_offset,
                             "event without ph (kept)");
  }
  if (ev_.cat != kNoString) {
    if (cat_cache_.size() <= ev_.cat) cat_cache_.resize(ev_.cat + 1u, 0xFF);
    // (append_block may have grown the counts past the cache.)
    if (model_.cat_string_counts_.size() <= ev_.cat)
      model_.cat_string_counts_.resize(ev_.cat + 1u, 0);
    if (cat_cache_[ev_.cat] == 0xFF) {
      cat_cache_[ev_.cat] =
          static_cast<std::uint8_t>(category_from_string(model_.strings_.view(ev_.cat)));
    }
    e.category = static_cast<Category>(cat_cache_[ev_.cat]);
    ++model_.cat_string_counts_[ev_.cat];
  }
  if (ev_.has_pid && ev_.has_tid) {
    e.thread = thread_index(ev_.pid, ev_.tid);
    e.flags |= kHasThread;
  }
  const bool has_ids = ev_.correlation != kNoValue || ev_.external_id != kNoValue ||
                       ev_.sequence != kNoValue || ev_.flow_id != kNoValue;
  if (has_ids || (ev_.flags & kHasArgs) != 0) {
    // Encoding: see TraceModel::detail (trace_model.cpp).
    record_.clear();
    record_.push_back(static_cast<std::uint8_t>(
        (ev_.correlation != kNoValue ? 1 : 0) | (ev_.external_id != kNoValue ? 2 : 0) |
        (ev_.sequence != kNoValue ? 4 : 0) | (ev_.flow_id != kNoValue ? 8 : 0)));
    if (ev_.correlation != kNoValue) put_varint(record_, zigzag(ev_.correlation));
    if (ev_.external_id != kNoValue) put_varint(record_, zigzag(ev_.external_id));
    if (ev_.sequence != kNoValue) put_varint(record_, zigzag(ev_.sequence));
    if (ev_.flow_id != kNoValue) put_varint(record_, zigzag(ev_.flow_id));
    put_varint(record_, ev_.pairs.size());
    for (const ArgPair& p : ev_.pairs) {
      put_varint(record_, p.key);
      put_varint(record_,
                 p.is_inline_int()
                     ? (static_cast<std::uint64_t>(p.value & ~ArgPair::kInlineIntBit) << 1) | 1
                     : static_cast<std::uint64_t>(p.value) << 1);
    }
    const std::uint64_t address = model_.details_.append(record_.data(), record_.size());
    e.detail = static_cast<std::uint32_t>(address);
    e.detail_hi = static_cast<std::uint16_t>(address >> 32);
    e.flags |= kHasDetail;
  }
  if ((e.flags & kTsFallback) != 0) model_.ts_fallback_[uid] = ev_.ts_fallback;
  if ((e.flags & kDurFallback) != 0) model_.dur_fallback_[uid] = ev_.dur_fallback;
  if (e.phase == Phase::kMetadata && e.thread != kNoIndex) {
    ThreadInfo& t = model_.threads_[e.thread];
    const std::string_view n = model_.str(e.name);
    ThreadMetaField assigned = ThreadMetaField::kNone;
    if (n == "process_name" && ev_.meta_name != kNoString) {
      t.process_name = ev_.meta_name;
      assigned = ThreadMetaField::kProcessName;
    } else if (n == "thread_name" && ev_.meta_name != kNoString) {
      t.thread_name = ev_.meta_name;
      assigned = ThreadMetaField::kThreadName;
    } else if (n == "process_labels" && ev_.meta_labels != kNoString) {
      t.process_labels = ev_.meta_labels;
      assigned = ThreadMetaField::kProcessLabels;
    } else if (n == "process_sort_index") {
      t.process_sort_index = ev_.sort_index;
      assigned = ThreadMetaField::kProcessSortIndex;
    } else if (n == "thread_sort_index") {
      t.thread_sort_index = ev_.sort_index;
      assigned = ThreadMetaField::kThreadSortIndex;
    }
    if (assigned != ThreadMetaField::kNone) {
      if (thread_meta_assigned_.size() <= e.thread) thread_meta_assigned_.resize(e.thread + 1u, 0);
      thread_meta_assigned_[e.thread] |= static_cast<std::uint8_t>(assigned);
    }
  }
  ++model_.category_counts_[static_cast<int>(e.category)];
  model_.events_.push_back(e);
}

}  // namespace loupe::core::trace
