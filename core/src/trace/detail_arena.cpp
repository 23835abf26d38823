#include "loupe/core/trace/detail_arena.hpp"

#include <cstring>

namespace loupe::core::trace {

void DetailArena::new_block(std::size_t min_bytes) {
  const std::size_t slots = (min_bytes + kSlotMask) >> kSlotShift;
  const std::size_t size = (slots == 0 ? 1 : slots) << kSlotShift;
  blocks_.push_back(std::make_unique_for_overwrite<std::uint8_t[]>(size));
  cur_ = blocks_.back().get();
  cur_address_ = static_cast<std::uint64_t>(slots_.size()) << kSlotShift;
  for (std::size_t off = 0; off < size; off += std::size_t{1} << kSlotShift) {
    slots_.push_back(cur_ + off);
  }
  used_ = 0;
  capacity_ = size;
  if (blocks_.size() == 1) first_capacity_ = size;
}

void DetailArena::clear() {
  if (blocks_.empty()) return;
  blocks_.resize(1);
  slots_.resize(first_capacity_ >> kSlotShift);
  cur_ = blocks_.front().get();
  used_ = 0;
  capacity_ = first_capacity_;
  cur_address_ = 0;
}

std::uint64_t DetailArena::append(const std::uint8_t* bytes, std::size_t n) {
  if (cur_ == nullptr || used_ + n > capacity_) new_block(n);
  std::memcpy(cur_ + used_, bytes, n);
  const std::uint64_t address = cur_address_ + used_;
  used_ += n;
  return address;
}

}  // namespace loupe::core::trace
