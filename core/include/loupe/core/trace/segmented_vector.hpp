// An append-only array stored in fixed-size segments: growing never copies the existing
// elements, so peak memory while loading stays close to the final size (no 2x spike of
// std::vector reallocation on multi-GB traces). A segment is allocated uninitialized and each
// element constructed when appended, so an array that holds few elements touches few pages
// (the parallel parse builds one small model per block).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

namespace loupe::core::trace {

template <typename T, unsigned kShift = 16>
class SegmentedVector {
  static_assert(std::is_trivially_destructible_v<T> && std::is_trivially_copyable_v<T>);

 public:
  static constexpr std::size_t kSegment = std::size_t{1} << kShift;

  void push_back(const T& value) {
    if ((size_ & (kSegment - 1)) == 0 && (size_ >> kShift) == segments_.size()) {
      segments_.emplace_back(static_cast<T*>(::operator new(kSegment * sizeof(T))));
    }
    ::new (static_cast<void*>(segments_[size_ >> kShift].get() + (size_ & (kSegment - 1))))
        T(value);
    ++size_;
  }
  T& operator[](std::size_t i) { return segments_[i >> kShift].get()[i & (kSegment - 1)]; }
  const T& operator[](std::size_t i) const {
    return segments_[i >> kShift].get()[i & (kSegment - 1)];
  }
  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Empties the array and keeps its first segment for reuse.
  void clear() {
    if (segments_.size() > 1) segments_.resize(1);
    size_ = 0;
  }
  std::size_t memory_bytes() const { return segments_.size() * kSegment * sizeof(T); }

 private:
  struct Free {
    void operator()(T* p) const { ::operator delete(static_cast<void*>(p)); }
  };
  std::vector<std::unique_ptr<T, Free>> segments_;
  std::size_t size_ = 0;
};

}  // namespace loupe::core::trace
