#include "python_set_order.hpp"

#include <optional>

namespace loupe::core::prepare::fusion {
namespace {

constexpr std::size_t kMinSize = 8;
constexpr std::size_t kLinearProbes = 9;
constexpr unsigned kPerturbShift = 5;
constexpr std::uint64_t kModulus = (std::uint64_t{1} << 61) - 1;  // sys.hash_info.modulus

struct Slot {
  std::int64_t value = 0;
  std::int64_t hash = 0;
};
using Table = std::vector<std::optional<Slot>>;

// The slot holding `value`, else the first free slot on the probe sequence of `hash`
// (set_add_entry; a table without deletions holds a value before its first free slot).
std::size_t probe(const Table& table, std::int64_t value, std::int64_t hash) {
  const std::size_t mask = table.size() - 1;
  auto perturb = static_cast<std::uint64_t>(hash);
  std::size_t i = static_cast<std::size_t>(perturb) & mask;
  while (true) {
    const std::size_t probes = i + kLinearProbes <= mask ? kLinearProbes : 0;
    for (std::size_t j = 0; j <= probes; ++j) {
      const auto& slot = table[i + j];
      if (!slot || slot->value == value) return i + j;
    }
    perturb >>= kPerturbShift;
    i = (i * 5 + 1 + static_cast<std::size_t>(perturb)) & mask;
  }
}

Table resized(const Table& old, std::size_t used) {
  const std::size_t min_used = used > 50000 ? used * 2 : used * 4;
  std::size_t size = kMinSize;
  while (size <= min_used) size <<= 1;
  Table table(size);
  for (const auto& slot : old) {
    if (slot) table[probe(table, slot->value, slot->hash)] = slot;
  }
  return table;
}

}  // namespace

std::int64_t python_int_hash(std::int64_t value) {
  const bool negative = value < 0;
  const std::uint64_t magnitude =
      negative ? ~static_cast<std::uint64_t>(value) + 1 : static_cast<std::uint64_t>(value);
  auto hash = static_cast<std::int64_t>(magnitude % kModulus);
  if (negative) hash = -hash;
  return hash == -1 ? -2 : hash;
}

std::vector<std::int64_t> python_set_iteration_order(const std::vector<std::int64_t>& values) {
  Table table(kMinSize);
  std::size_t used = 0;
  for (const std::int64_t value : values) {
    const std::int64_t hash = python_int_hash(value);
    auto& slot = table[probe(table, value, hash)];
    if (slot) continue;  // already in the set
    slot = Slot{value, hash};
    ++used;
    if (used * 5 >= (table.size() - 1) * 3) table = resized(table, used);
  }
  std::vector<std::int64_t> order;
  order.reserve(used);
  for (const auto& slot : table) {
    if (slot) order.push_back(slot->value);
  }
  return order;
}

}  // namespace loupe::core::prepare::fusion
