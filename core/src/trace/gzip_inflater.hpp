// One gzip member's DEFLATE stream inflated chunk by chunk, behind the library chosen at
// configure time: Intel ISA-L's igzip when libisal-dev is found (several times faster than
// zlib on trace JSON, docs/performance.md "What changed in the big-trace work"), else zlib.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace loupe::core::trace {

enum class InflateStatus {
  kOk,         // progress made (or more input needed)
  kMemberEnd,  // the member's trailer was read and checked
  kError,      // corrupt data; message() says what
};

class GzipInflater {
 public:
  virtual ~GzipInflater() = default;
  // Inflates from [next_in, next_in + avail_in) into [next_out, next_out + avail_out),
  // advancing both; stops when either runs out or at the member's end.
  virtual InflateStatus inflate(const unsigned char*& next_in, std::size_t& avail_in,
                                unsigned char*& next_out, std::size_t& avail_out) = 0;
  // Starts the next member (concatenated gzip).
  virtual void reset() = 0;
  virtual std::string message() const = 0;
};

std::unique_ptr<GzipInflater> make_gzip_inflater();
// "isa-l" or "zlib": the library the build uses.
const char* gzip_inflater_name();

}  // namespace loupe::core::trace
