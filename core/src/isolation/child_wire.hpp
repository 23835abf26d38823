// The records a forked child hands back to the host through a pipe. Each record is a tag byte,
// a little-endian u64 payload length and the payload. Records may stream in while the child runs
// (log lines) and end with an End record; anything after End, an unknown tag or a payload over
// the limit makes the stream malformed.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace loupe::core::isolation {

enum class WireTag : char {
  Status = 'S',       // analyze()'s return code, as decimal text
  Metrics = 'M',      // the metrics document
  Findings = 'F',     // the findings document
  Error = 'E',        // one report_error message
  Log = 'L',          // one log line: level digit, then the message
  PluginInfo = 'P',   // a probed plugin descriptor (see plugin_probe.hpp)
  OutOfMemory = 'O',  // an allocation failed under the memory limit
  End = 'Z',          // the child finished normally
};

struct WireRecord {
  WireTag tag = WireTag::End;
  std::string payload;
};

// The largest payload the host accepts in one record (docs/plugin-abi.md, "Limits").
inline constexpr std::uint64_t kMaxWirePayload = std::uint64_t{96} << 20;

void append_record(std::string& wire, WireTag tag, std::string_view payload);

// Writes one record to fd, retrying on EINTR. Safe to call from a new_handler: allocates nothing
// when the payload is empty.
bool write_record(int fd, WireTag tag, std::string_view payload) noexcept;

// Writes already encoded records (append_record) to fd, retrying on EINTR.
bool write_bytes(int fd, std::string_view bytes) noexcept;

// Reassembles records from the bytes read so far.
class WireReader {
 public:
  void feed(std::string_view bytes) { buffer_.append(bytes); }
  // The next complete record, or nothing when more bytes are needed or the stream is malformed.
  std::optional<WireRecord> next();
  bool malformed() const { return malformed_; }
  bool ended() const { return ended_; }

 private:
  std::string buffer_;
  std::size_t offset_ = 0;
  bool malformed_ = false;
  bool ended_ = false;
};

}  // namespace loupe::core::isolation
