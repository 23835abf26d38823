#include "memory_estimate.hpp"

#include <array>
#include <fstream>

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

// Peak RSS of the whole `loupe analyze --trace` (load, tree, preparation, analyzers) per byte
// of JSON text, measured on the generated owlv2 traces: 0.89 at 266 MB, 0.77 at 1 GB (these
// include the fixed base below), rounded up (docs/performance.md, "Memory estimate and
// --max-memory").
constexpr double kPeakBytesPerJsonByte = 0.80;
// Fixed cost: the binary, plugins, read buffers and the analyzers' children.
constexpr std::uint64_t kBaseBytes = std::uint64_t{40} << 20;

}  // namespace

std::optional<TraceSizeEstimate> estimate_trace_size(const fs::path& path, std::string& why) {
  std::error_code ec;
  const std::uint64_t file_bytes = fs::file_size(path, ec);
  if (ec) {
    why = ec.message();
    return std::nullopt;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    why = "cannot be read";
    return std::nullopt;
  }
  std::array<unsigned char, 2> magic{};
  in.read(reinterpret_cast<char*>(magic.data()), 2);
  TraceSizeEstimate est;
  est.json_bytes = file_bytes;
  if (in.gcount() != 2 || magic[0] != 0x1f || magic[1] != 0x8b || file_bytes < 18) return est;
  // gzip: ISIZE, the last 4 bytes (little-endian), is the uncompressed size mod 2^32.
  std::array<unsigned char, 4> tail{};
  in.seekg(static_cast<std::streamoff>(file_bytes - 4));
  in.read(reinterpret_cast<char*>(tail.data()), 4);
  if (in.gcount() != 4) {
    why = "cannot read the gzip trailer";
    return std::nullopt;
  }
  std::uint64_t size = std::uint64_t{tail[0]} | std::uint64_t{tail[1]} << 8 |
                       std::uint64_t{tail[2]} << 16 | std::uint64_t{tail[3]} << 24;
  // JSON does not inflate to less than its compressed size minus the container's overhead
  // (header with file name and comment, trailer, stored-block headers: under 1 KiB + 0.1 %),
  // so a smaller ISIZE lost wraps of 2^32; a tiny file with a large header is left as is.
  const std::uint64_t overhead = 1024 + file_bytes / 1000;
  while (size + overhead < file_bytes) size += std::uint64_t{1} << 32;
  est.json_bytes = size;
  est.gzip = true;
  est.lower_bound = true;
  return est;
}

std::uint64_t estimate_analyze_peak_bytes(std::uint64_t json_bytes) {
  return kBaseBytes +
         static_cast<std::uint64_t>(static_cast<double>(json_bytes) * kPeakBytesPerJsonByte);
}

}  // namespace loupe::cli
