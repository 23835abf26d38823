#include "child_wire.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace loupe::core::isolation {

namespace {

constexpr std::size_t kHeaderSize = 1 + sizeof(std::uint64_t);

bool known_tag(char tag) {
  switch (static_cast<WireTag>(tag)) {
    case WireTag::Status:
    case WireTag::Metrics:
    case WireTag::Findings:
    case WireTag::Error:
    case WireTag::Log:
    case WireTag::PluginInfo:
    case WireTag::OutOfMemory:
    case WireTag::End:
      return true;
  }
  return false;
}

void fill_header(char (&header)[kHeaderSize], WireTag tag, std::uint64_t size) {
  header[0] = static_cast<char>(tag);
  std::memcpy(header + 1, &size, sizeof(size));
}

bool write_all(int fd, const char* data, std::size_t size) noexcept {
  while (size > 0) {
    const ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

void append_record(std::string& wire, WireTag tag, std::string_view payload) {
  char header[kHeaderSize];
  fill_header(header, tag, payload.size());
  wire.append(header, sizeof(header));
  wire.append(payload);
}

bool write_record(int fd, WireTag tag, std::string_view payload) noexcept {
  char header[kHeaderSize];
  fill_header(header, tag, payload.size());
  return write_all(fd, header, sizeof(header)) && write_all(fd, payload.data(), payload.size());
}

bool write_bytes(int fd, std::string_view bytes) noexcept {
  return write_all(fd, bytes.data(), bytes.size());
}

std::optional<WireRecord> WireReader::next() {
  if (malformed_ || buffer_.size() - offset_ < kHeaderSize) return std::nullopt;
  const char tag = buffer_[offset_];
  std::uint64_t size = 0;
  std::memcpy(&size, buffer_.data() + offset_ + 1, sizeof(size));
  if (ended_ || !known_tag(tag) || size > kMaxWirePayload) {
    malformed_ = true;
    return std::nullopt;
  }
  if (buffer_.size() - offset_ - kHeaderSize < size) return std::nullopt;
  WireRecord record;
  record.tag = static_cast<WireTag>(tag);
  record.payload = buffer_.substr(offset_ + kHeaderSize, static_cast<std::size_t>(size));
  offset_ += kHeaderSize + static_cast<std::size_t>(size);
  if (offset_ == buffer_.size()) {
    buffer_.clear();
    offset_ = 0;
  }
  if (record.tag == WireTag::End) ended_ = true;
  return record;
}

}  // namespace loupe::core::isolation
