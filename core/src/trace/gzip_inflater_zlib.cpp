// The zlib inflater (the fallback when ISA-L is absent at configure time; gzip_inflater.hpp).
#include <zlib.h>

#include <cstring>
#include <stdexcept>

#include "gzip_inflater.hpp"

namespace loupe::core::trace {

namespace {

class ZlibInflater final : public GzipInflater {
 public:
  ZlibInflater() {
    std::memset(&z_, 0, sizeof(z_));
    if (inflateInit2(&z_, 15 + 32) != Z_OK) throw std::runtime_error("zlib: inflateInit2 failed");
  }
  ZlibInflater(const ZlibInflater&) = delete;
  ZlibInflater& operator=(const ZlibInflater&) = delete;
  ~ZlibInflater() override { inflateEnd(&z_); }

  InflateStatus inflate(const unsigned char*& next_in, std::size_t& avail_in,
                        unsigned char*& next_out, std::size_t& avail_out) override {
    // zlib counts in uInt: feed at most 1 GiB per call.
    constexpr std::size_t kMax = std::size_t{1} << 30;
    const auto in = static_cast<uInt>(std::min(avail_in, kMax));
    const auto out = static_cast<uInt>(std::min(avail_out, kMax));
    z_.next_in = const_cast<Bytef*>(next_in);
    z_.avail_in = in;
    z_.next_out = next_out;
    z_.avail_out = out;
    const int rc = ::inflate(&z_, Z_NO_FLUSH);
    next_in += in - z_.avail_in;
    avail_in -= in - z_.avail_in;
    next_out += out - z_.avail_out;
    avail_out -= out - z_.avail_out;
    if (rc == Z_STREAM_END) return InflateStatus::kMemberEnd;
    if (rc == Z_OK || (rc == Z_BUF_ERROR && z_.avail_in == 0)) return InflateStatus::kOk;
    message_ = z_.msg != nullptr ? z_.msg : "inflate error";
    return InflateStatus::kError;
  }
  void reset() override { inflateReset(&z_); }
  std::string message() const override { return message_; }

 private:
  z_stream z_{};
  std::string message_;
};

}  // namespace

std::unique_ptr<GzipInflater> make_gzip_inflater() { return std::make_unique<ZlibInflater>(); }
const char* gzip_inflater_name() { return "zlib"; }

}  // namespace loupe::core::trace
