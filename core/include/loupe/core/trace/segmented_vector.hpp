// An append-only array stored in fixed-size segments: growing never copies the existing
// elements, so peak memory while loading stays close to the final size (no 2x spike of
// std::vector reallocation on multi-GB traces).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace loupe::core::trace {

template <typename T, unsigned kShift = 16>
class SegmentedVector {
 public:
  static constexpr std::size_t kSegment = std::size_t{1} << kShift;

  void push_back(const T& value) {
    if ((size_ & (kSegment - 1)) == 0 && (size_ >> kShift) == segments_.size()) {
      segments_.push_back(std::make_unique<T[]>(kSegment));
    }
    segments_[size_ >> kShift][size_ & (kSegment - 1)] = value;
    ++size_;
  }
  T& operator[](std::size_t i) { return segments_[i >> kShift][i & (kSegment - 1)]; }
  const T& operator[](std::size_t i) const { return segments_[i >> kShift][i & (kSegment - 1)]; }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  std::size_t memory_bytes() const { return segments_.size() * kSegment * sizeof(T); }

 private:
  std::vector<std::unique_ptr<T[]>> segments_;
  std::size_t size_ = 0;
};

}  // namespace loupe::core::trace
