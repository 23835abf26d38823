// Append-only byte arena for the per-event detail records (ids + remaining args, varint
// encoded, see trace_model.cpp). Records are contiguous; addresses are 64-bit, so an arena may
// exceed 4 GiB. Blocks are never moved or copied while growing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace loupe::core::trace {

class DetailArena {
 public:
  static constexpr unsigned kSlotShift = 20;  // 1 MiB slots of the address space
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotShift) - 1;

  // Copies `n` bytes in, contiguously; returns their address.
  std::uint64_t append(const std::uint8_t* bytes, std::size_t n);
  const std::uint8_t* at(std::uint64_t address) const {
    return slots_[address >> kSlotShift] + (address & kSlotMask);
  }
  std::size_t memory_bytes() const { return slots_.size() << kSlotShift; }
  // Empties the arena and keeps its first block for reuse.
  void clear();

 private:
  void new_block(std::size_t min_bytes);

  std::vector<std::unique_ptr<std::uint8_t[]>> blocks_;
  std::vector<const std::uint8_t*> slots_;  // the memory of each slot of the address space
  std::uint8_t* cur_ = nullptr;
  std::size_t used_ = 0;
  std::size_t capacity_ = 0;
  std::uint64_t cur_address_ = 0;   // address of cur_[0]
  std::size_t first_capacity_ = 0;  // bytes of blocks_[0]
};

}  // namespace loupe::core::trace
