#include "loupe/core/trace/byte_source.hpp"

#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <deque>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "gzip_inflater.hpp"

namespace loupe::core::trace {

namespace {

// Raw bytes of the container: a file read in chunks, or a string in memory.
class RawInput {
 public:
  virtual ~RawInput() = default;
  // Reads up to n bytes into dst; returns the count (0 at end).
  virtual std::size_t read(char* dst, std::size_t n) = 0;
};

class FileInput final : public RawInput {
 public:
  explicit FileInput(const std::filesystem::path& path) : file_(std::fopen(path.c_str(), "rb")) {
    if (file_ == nullptr) {
      throw std::runtime_error("cannot open " + path.string() + ": " + std::strerror(errno));
    }
  }
  FileInput(const FileInput&) = delete;
  FileInput& operator=(const FileInput&) = delete;
  ~FileInput() override { std::fclose(file_); }
  std::size_t read(char* dst, std::size_t n) override { return std::fread(dst, 1, n, file_); }

 private:
  std::FILE* file_;
};

class MemoryInput final : public RawInput {
 public:
  explicit MemoryInput(std::string bytes) : bytes_(std::move(bytes)) {}
  std::size_t read(char* dst, std::size_t n) override {
    const std::size_t k = std::min(n, bytes_.size() - pos_);
    std::memcpy(dst, bytes_.data() + pos_, k);
    pos_ += k;
    return k;
  }

 private:
  std::string bytes_;
  std::size_t pos_ = 0;
};

// Pushes back the sniffed magic bytes in front of the rest of the input.
struct Prefixed {
  std::unique_ptr<RawInput> input;
  std::string prefix;
  std::size_t prefix_pos = 0;
  std::size_t read(char* dst, std::size_t n) {
    std::size_t k = 0;
    while (k < n && prefix_pos < prefix.size()) dst[k++] = prefix[prefix_pos++];
    if (k < n) k += input->read(dst + k, n - k);
    return k;
  }
};

class PlainSource final : public ByteSource {
 public:
  PlainSource(Prefixed in, std::size_t chunk) : in_(std::move(in)), buffer_(chunk) {}
  std::string_view next_chunk() override {
    const std::size_t n = in_.read(buffer_.data(), buffer_.size());
    consumed_ += n;
    return std::string_view(buffer_.data(), n);
  }
  std::string error() const override { return {}; }
  bool is_gzip() const override { return false; }
  std::uint64_t input_bytes_consumed() const override { return consumed_; }

 private:
  Prefixed in_;
  std::vector<char> buffer_;
  std::uint64_t consumed_ = 0;
};

class GzipSource final : public ByteSource {
 public:
  GzipSource(Prefixed in, std::size_t chunk)
      : in_(std::move(in)),
        inflater_(make_gzip_inflater()),
        in_buf_(1u << 20),
        out_buf_(kInflateBytes),
        chunk_(std::max<std::size_t>(chunk, 1)) {}

  // Slices of at most `chunk` bytes of the inflated text. The inflater always fills the same
  // fixed buffer, whatever the chunk size: how much text comes out of corrupt data before the
  // inflater notices depends on the room it is given (ISA-L's fast path), and that text must be
  // the same for every reader and chunk size (docs/performance.md, "Errors of a .json.gz").
  std::string_view next_chunk() override {
    if (served_ == staged_) {
      staged_ = inflate_more();
      served_ = 0;
    }
    const std::size_t n = std::min(chunk_, staged_ - served_);
    const std::string_view slice(out_buf_.data() + served_, n);
    served_ += n;
    return slice;
  }
  std::string error() const override { return error_; }
  std::uint64_t ignored_trailing_bytes() const override { return trailing_; }
  bool is_gzip() const override { return true; }
  std::uint64_t input_bytes_consumed() const override { return consumed_ - avail_in_; }

 private:
  static constexpr std::size_t kInflateBytes = std::size_t{1} << 20;

  // Inflates into out_buf_; returns the bytes written (0 at the end or after an error).
  std::size_t inflate_more() {
    if (done_) return 0;
    auto* out = reinterpret_cast<unsigned char*>(out_buf_.data());
    std::size_t avail_out = out_buf_.size();
    while (avail_out > 0) {
      if (avail_in_ == 0 && !input_eof_) refill();
      if (avail_in_ == 0 && input_eof_ && !member_open_) {
        done_ = true;
        break;
      }
      // At the end of the input an open member is still inflated: the inflater may hold input it
      // has taken but not yet turned into text (ISA-L does), which must come out, whatever the
      // chunk size, before the stream is called truncated (below).
      member_open_ = true;
      const std::size_t in_before = avail_in_;
      const std::size_t out_before = avail_out;
      const InflateStatus st = inflater_->inflate(next_in_, avail_in_, out, avail_out);
      if (st == InflateStatus::kMemberEnd) {
        member_open_ = false;
        // Concatenated members: continue if the next bytes are another gzip header.
        if (avail_in_ < 2 && !input_eof_) refill();
        if (avail_in_ == 0) {
          done_ = true;
          break;
        }
        if (avail_in_ >= 2 && next_in_[0] == 0x1f && next_in_[1] == 0x8b) {
          inflater_->reset();
          continue;
        }
        trailing_ = avail_in_;
        while (true) {
          const std::size_t n = in_.read(in_buf_.data(), in_buf_.size());
          if (n == 0) break;
          trailing_ += n;
        }
        avail_in_ = 0;
        done_ = true;
        break;
      }
      if (st == InflateStatus::kError) {
        error_ = std::string("corrupt gzip data near compressed byte ") +
                 std::to_string(consumed_ - avail_in_) + ": " + inflater_->message();
        done_ = true;
        break;
      }
      if (avail_in_ == 0 && input_eof_ && avail_out == out_before) {
        truncated(out_buf_.size() - avail_out);
        done_ = true;
        break;
      }
      // No progress with input left: the inflater needs more bytes than it was given.
      if (avail_in_ == in_before && avail_out == out_before && avail_in_ > 0) {
        if (!input_eof_ && refill()) continue;
        if (input_eof_) {
          truncated(out_buf_.size() - avail_out);
        } else {  // a full input buffer that the inflater cannot use
          error_ = "corrupt gzip data near compressed byte " +
                   std::to_string(consumed_ - avail_in_) + ": the inflater made no progress";
        }
        done_ = true;
        break;
      }
    }
    const std::size_t n = out_buf_.size() - avail_out;
    produced_ += n;
    return n;
  }

  void truncated(std::size_t produced_now) {
    error_ = "truncated gzip stream: input ends at compressed byte " + std::to_string(consumed_) +
             " inside a gzip member (decompressed " + std::to_string(produced_ + produced_now) +
             " bytes)";
  }
  // Moves the unread input to the front and reads more after it; false at the end.
  bool refill() {
    if (avail_in_ > 0 && next_in_ != reinterpret_cast<const unsigned char*>(in_buf_.data())) {
      std::memmove(in_buf_.data(), next_in_, avail_in_);
    }
    next_in_ = reinterpret_cast<const unsigned char*>(in_buf_.data());
    if (avail_in_ == in_buf_.size()) return false;  // full: no room, not the end of the input
    const std::size_t n = in_.read(in_buf_.data() + avail_in_, in_buf_.size() - avail_in_);
    consumed_ += n;
    if (n == 0) input_eof_ = true;
    avail_in_ += n;
    return n > 0;
  }

  Prefixed in_;
  std::unique_ptr<GzipInflater> inflater_;
  std::vector<char> in_buf_;
  std::vector<char> out_buf_;
  std::size_t chunk_;
  std::size_t staged_ = 0;  // bytes of out_buf_ inflated
  std::size_t served_ = 0;  // of them, handed out
  const unsigned char* next_in_ = nullptr;
  std::size_t avail_in_ = 0;
  std::uint64_t consumed_ = 0;
  std::uint64_t produced_ = 0;
  std::uint64_t trailing_ = 0;
  bool input_eof_ = false;
  bool member_open_ = false;
  bool done_ = false;
  std::string error_;
};

// Drops a UTF-8 byte-order mark (EF BB BF) in front of the text, plain or inflated: editors on
// Windows write one, and JSON parsers reject it as "invalid value" at byte 0. The JSON text
// (and every offset in messages) starts after it. Chunks of any size: the first 3 bytes are
// gathered across chunks before the check.
class BomSkipSource final : public ByteSource {
 public:
  explicit BomSkipSource(std::unique_ptr<ByteSource> inner) : inner_(std::move(inner)) {}
  std::string_view next_chunk() override {
    if (started_) return inner_->next_chunk();
    started_ = true;
    constexpr std::string_view kBom = "\xEF\xBB\xBF";
    while (head_.size() < kBom.size()) {
      const std::string_view chunk = inner_->next_chunk();
      if (chunk.empty()) break;
      head_.append(chunk);
    }
    if (head_.compare(0, kBom.size(), kBom) == 0) head_.erase(0, kBom.size());
    if (head_.empty()) return inner_->next_chunk();
    return head_;
  }
  std::string error() const override { return inner_->error(); }
  std::uint64_t ignored_trailing_bytes() const override { return inner_->ignored_trailing_bytes(); }
  bool is_gzip() const override { return inner_->is_gzip(); }
  std::uint64_t input_bytes_consumed() const override { return inner_->input_bytes_consumed(); }

 private:
  std::unique_ptr<ByteSource> inner_;
  std::string head_;
  bool started_ = false;
};

std::unique_ptr<ByteSource> sniff(std::unique_ptr<RawInput> raw, std::size_t chunk) {
  Prefixed in{std::move(raw), std::string(2, '\0'), 0};
  const std::size_t n = in.input->read(in.prefix.data(), 2);
  in.prefix.resize(n);
  const bool gzip = n == 2 && static_cast<unsigned char>(in.prefix[0]) == 0x1f &&
                    static_cast<unsigned char>(in.prefix[1]) == 0x8b;
  if (gzip)
    return std::make_unique<BomSkipSource>(std::make_unique<GzipSource>(std::move(in), chunk));
  return std::make_unique<BomSkipSource>(std::make_unique<PlainSource>(std::move(in), chunk));
}

class ReadAheadSource final : public ByteSource {
 public:
  ReadAheadSource(std::unique_ptr<ByteSource> inner, std::size_t depth)
      : inner_(std::move(inner)), depth_(depth == 0 ? 1 : depth) {
    gzip_ = inner_->is_gzip();
    worker_ = std::thread([this] { produce(); });
  }
  ReadAheadSource(const ReadAheadSource&) = delete;
  ReadAheadSource& operator=(const ReadAheadSource&) = delete;
  ~ReadAheadSource() override {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  std::string_view next_chunk() override {
    std::unique_lock lock(mutex_);
    if (!current_.empty()) {
      spare_.push_back(std::move(current_));
      current_.clear();
      cv_.notify_all();
    }
    cv_.wait(lock, [this] { return !ready_.empty() || finished_; });
    if (ready_.empty()) return {};
    current_ = std::move(ready_.front());
    ready_.pop_front();
    consumed_ = consumed_at_.front();
    consumed_at_.pop_front();
    cv_.notify_all();
    return std::string_view(current_.data(), current_.size());
  }
  std::string error() const override {
    std::lock_guard lock(mutex_);
    return finished_ && ready_.empty() ? error_ : std::string();
  }
  std::uint64_t ignored_trailing_bytes() const override {
    std::lock_guard lock(mutex_);
    return trailing_;
  }
  bool is_gzip() const override { return gzip_; }
  std::uint64_t input_bytes_consumed() const override {
    std::lock_guard lock(mutex_);
    return consumed_;
  }

 private:
  void produce() {
    while (true) {
      std::vector<char> buf;
      {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return stop_ || ready_.size() < depth_; });
        if (stop_) return;
        if (!spare_.empty()) {
          buf = std::move(spare_.back());
          spare_.pop_back();
        }
      }
      const std::string_view chunk = inner_->next_chunk();
      buf.assign(chunk.begin(), chunk.end());
      const std::uint64_t consumed = inner_->input_bytes_consumed();
      std::lock_guard lock(mutex_);
      if (chunk.empty()) {
        finished_ = true;
        error_ = inner_->error();
        trailing_ = inner_->ignored_trailing_bytes();
        cv_.notify_all();
        return;
      }
      ready_.push_back(std::move(buf));
      consumed_at_.push_back(consumed);
      cv_.notify_all();
    }
  }

  std::unique_ptr<ByteSource> inner_;
  std::size_t depth_;
  bool gzip_ = false;
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::vector<char>> ready_;
  std::deque<std::uint64_t> consumed_at_;
  std::vector<std::vector<char>> spare_;
  std::vector<char> current_;
  std::uint64_t consumed_ = 0;
  std::uint64_t trailing_ = 0;
  bool finished_ = false;
  bool stop_ = false;
  std::string error_;
  std::thread worker_;
};

}  // namespace

std::unique_ptr<ByteSource> open_byte_source(const std::filesystem::path& path,
                                             std::size_t chunk_bytes) {
  return sniff(std::make_unique<FileInput>(path), chunk_bytes);
}

std::unique_ptr<ByteSource> memory_byte_source(std::string bytes, std::size_t chunk_bytes) {
  return sniff(std::make_unique<MemoryInput>(std::move(bytes)), chunk_bytes);
}

std::unique_ptr<ByteSource> read_ahead(std::unique_ptr<ByteSource> inner, std::size_t depth) {
  return std::make_unique<ReadAheadSource>(std::move(inner), depth);
}

}  // namespace loupe::core::trace
