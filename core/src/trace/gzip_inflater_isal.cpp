// The ISA-L (igzip) inflater: isal_inflate parses the gzip header and checks the CRC-32 and
// ISIZE trailer itself (ISAL_GZIP); gzip_inflater.hpp.
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstdint>

#include "gzip_inflater.hpp"

namespace loupe::core::trace {

namespace {

const char* describe(int rc) {
  switch (rc) {
    case ISAL_INVALID_BLOCK:
      return "invalid deflate block";
    case ISAL_INVALID_SYMBOL:
      return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK:
      return "invalid distance too far back";
    case ISAL_INVALID_WRAPPER:
      return "incorrect gzip header";
    case ISAL_UNSUPPORTED_METHOD:
      return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM:
      return "incorrect data check";
    case ISAL_NEED_DICT:
      return "a preset dictionary is needed";
    default:
      return "inflate error";
  }
}

class IsalInflater final : public GzipInflater {
 public:
  IsalInflater() : state_(std::make_unique<inflate_state>()) { reset(); }

  InflateStatus inflate(const unsigned char*& next_in, std::size_t& avail_in,
                        unsigned char*& next_out, std::size_t& avail_out) override {
    // ISA-L counts in uint32_t: feed at most 1 GiB per call.
    constexpr std::size_t kMax = std::size_t{1} << 30;
    const auto in = static_cast<std::uint32_t>(std::min(avail_in, kMax));
    const auto out = static_cast<std::uint32_t>(std::min(avail_out, kMax));
    state_->next_in = const_cast<std::uint8_t*>(next_in);
    state_->avail_in = in;
    state_->next_out = next_out;
    state_->avail_out = out;
    const int rc = isal_inflate(state_.get());
    next_in += in - state_->avail_in;
    avail_in -= in - state_->avail_in;
    next_out += out - state_->avail_out;
    avail_out -= out - state_->avail_out;
    if (rc < 0 || rc == ISAL_NEED_DICT) {
      message_ = describe(rc);
      return InflateStatus::kError;
    }
    if (state_->block_state == ISAL_BLOCK_FINISH) return InflateStatus::kMemberEnd;
    return InflateStatus::kOk;
  }
  void reset() override {
    isal_inflate_init(state_.get());
    state_->crc_flag = ISAL_GZIP;
  }
  std::string message() const override { return message_; }

 private:
  std::unique_ptr<inflate_state> state_;  // ~20 KB of decode tables: on the heap
  std::string message_;
};

}  // namespace

std::unique_ptr<GzipInflater> make_gzip_inflater() { return std::make_unique<IsalInflater>(); }
const char* gzip_inflater_name() { return "isa-l"; }

}  // namespace loupe::core::trace
