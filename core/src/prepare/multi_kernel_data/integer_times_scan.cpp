// gpu_times_are_integers(): a SAX pass over the trace that looks only at the `ts` / `dur`
// tokens of GPU events (Python keeps integer tokens as ints, which changes the data file's
// number spelling; the trace model stores exact nanoseconds and not the spelling).
#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <stdexcept>
#include <string>

#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "loupe/core/trace/byte_source.hpp"

namespace loupe::core::prepare {

namespace {

// RapidJSON input stream over the chunks of a ByteSource.
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

enum class Token : std::uint8_t { kAbsent, kInteger, kOther };

class Handler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, Handler> {
 public:
  bool Default() { return value(Token::kOther, {}); }
  bool Int(int) { return value(Token::kInteger, {}); }
  bool Uint(unsigned) { return value(Token::kInteger, {}); }
  bool Int64(std::int64_t) { return value(Token::kInteger, {}); }
  bool Uint64(std::uint64_t) { return value(Token::kInteger, {}); }
  bool String(const char* s, rapidjson::SizeType n, bool) {
    return value(Token::kOther, std::string_view(s, n));
  }
  bool Key(const char* s, rapidjson::SizeType n, bool) {
    key_.assign(s, n);
    if (depth_ == 1) in_events_key_ = key_ == "traceEvents";
    return true;
  }
  bool StartObject() {
    if (depth_ == 2 && events_array_) event_ = {};
    container(true);
    ++depth_;
    return true;
  }
  bool EndObject(rapidjson::SizeType) {
    --depth_;
    if (depth_ == 2 && events_array_ && event_.gpu) {
      ++gpu_events_;
      all_integer_ = all_integer_ && event_.ts == Token::kInteger && event_.dur == Token::kInteger;
    }
    return true;
  }
  bool StartArray() {
    if (depth_ == 1 && in_events_key_) events_array_ = true;
    container(false);
    ++depth_;
    return true;
  }
  bool EndArray(rapidjson::SizeType) {
    --depth_;
    if (depth_ == 1) events_array_ = false;
    return true;
  }

  bool result() const { return gpu_events_ > 0 && all_integer_; }

 private:
  struct EventState {
    bool gpu = false;
    Token ts = Token::kAbsent, dur = Token::kAbsent;
  };
  // A scalar value: interesting only directly inside an event object.
  bool value(Token t, std::string_view text) {
    if (depth_ != 3 || !events_array_) return true;
    if (key_ == "ts") event_.ts = t;
    if (key_ == "dur") event_.dur = t;
    if (key_ == "cat")
      event_.gpu = text == "kernel" || text == "gpu_memcpy" || text == "gpu_memset";
    return true;
  }
  void container(bool) {
    if (depth_ == 3 && events_array_ && (key_ == "ts" || key_ == "dur")) {
      (key_ == "ts" ? event_.ts : event_.dur) = Token::kOther;
    }
  }

  int depth_ = 0;
  bool in_events_key_ = false;
  bool events_array_ = false;
  std::string key_;
  EventState event_;
  std::uint64_t gpu_events_ = 0;
  bool all_integer_ = true;
};

}  // namespace

bool gpu_times_are_integers(const std::filesystem::path& trace_path) {
  auto source = trace::open_byte_source(trace_path);
  ChunkStream stream(*source);
  Handler handler;
  rapidjson::Reader reader;
  const auto result = reader.Parse<rapidjson::kParseNanAndInfFlag>(stream, handler);
  if (result.IsError()) {
    throw std::runtime_error(std::string("cannot scan ") + trace_path.string() + ": " +
                             rapidjson::GetParseError_En(result.Code()));
  }
  return handler.result();
}

}  // namespace loupe::core::prepare
