// Which events wrote `dur` as a JSON integer (`"dur": 5`, not `5.0`): Python keeps those as
// ints, which changes how fusion_candidates.json prints times. A SAX pass over the raw text,
// since the trace model keeps exact nanoseconds but not the token's form.
#include <rapidjson/reader.h>

#include <algorithm>
#include <memory>
#include <string>
#include <string_view>

#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/core/trace/byte_source.hpp"

namespace loupe::core::prepare {
namespace {

// RapidJSON input stream over ByteSource chunks.
class ChunkStream {
 public:
  using Ch = char;
  explicit ChunkStream(trace::ByteSource& source) : source_(source) { refill(); }
  Ch Peek() const { return pos_ < chunk_.size() ? chunk_[pos_] : '\0'; }
  Ch Take() {
    const Ch c = Peek();
    if (pos_ < chunk_.size()) {
      ++pos_;
      ++count_;
      if (pos_ == chunk_.size()) refill();
    }
    return c;
  }
  std::size_t Tell() const { return count_; }
  Ch* PutBegin() { return nullptr; }
  void Put(Ch) {}
  void Flush() {}
  std::size_t PutEnd(Ch*) { return 0; }

 private:
  void refill() {
    chunk_ = source_.next_chunk();
    pos_ = 0;
  }
  trace::ByteSource& source_;
  std::string_view chunk_;
  std::size_t pos_ = 0;
  std::size_t count_ = 0;
};

// Depth 1 = top object, 2 = traceEvents array, 3 = an event object.
class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  explicit Handler(IntegerDurations& out) : out_(out) {}

  bool Default() {
    after_value();
    return true;
  }
  bool Int(int) { return integer(); }
  bool Uint(unsigned) { return integer(); }
  bool Int64(std::int64_t) { return integer(); }
  bool Uint64(std::uint64_t) { return integer(); }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    const std::string_view key(s, n);
    if (depth_ == 1) in_events_key_ = key == "traceEvents";
    dur_key_ = depth_ == 3 && in_events_ && key == "dur";
    return true;
  }
  bool StartObject() { return start(); }
  bool EndObject(rapidjson::SizeType) { return end(); }
  bool StartArray() { return start(); }
  bool EndArray(rapidjson::SizeType) { return end(); }

 private:
  bool integer() {
    if (dur_key_) out_.uids.push_back(static_cast<trace::Uid>(event_index_));
    after_value();
    return true;
  }
  void after_value() {
    dur_key_ = false;
    if (depth_ == 2 && in_events_) ++event_index_;
  }
  bool start() {
    if (depth_ == 1 && in_events_key_) in_events_ = true;
    dur_key_ = false;
    ++depth_;
    return true;
  }
  bool end() {
    --depth_;
    if (depth_ == 1) in_events_ = false;
    if (depth_ == 2 && in_events_) ++event_index_;
    if (depth_ == 1) in_events_key_ = false;
    return true;
  }

  IntegerDurations& out_;
  int depth_ = 0;
  bool in_events_key_ = false;
  bool in_events_ = false;
  bool dur_key_ = false;
  std::size_t event_index_ = 0;
};

}  // namespace

bool IntegerDurations::contains(trace::Uid uid) const {
  return std::binary_search(uids.begin(), uids.end(), uid);
}

IntegerDurations scan_integer_durations(const std::filesystem::path& trace_path) {
  IntegerDurations out;
  const auto source = trace::open_byte_source(trace_path);
  ChunkStream stream(*source);
  Handler handler(out);
  rapidjson::Reader reader;
  reader.Parse<rapidjson::kParseNanAndInfFlag | rapidjson::kParseStopWhenDoneFlag>(stream, handler);
  return out;
}

}  // namespace loupe::core::prepare
