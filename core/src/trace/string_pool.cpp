#include "loupe/core/trace/string_pool.hpp"

#include <algorithm>
#include <cstring>

namespace loupe::core::trace {

namespace {
constexpr std::size_t kBlockSize = 1u << 16;
}

std::uint64_t hash_bytes(std::string_view text) {
  // FNV-1a over 8-byte words, then a final avalanche (fast enough for interning).
  std::uint64_t h = 1469598103934665603ull ^ text.size();
  std::size_t i = 0;
  for (; i + 8 <= text.size(); i += 8) {
    std::uint64_t word = 0;
    std::memcpy(&word, text.data() + i, 8);
    h = (h ^ word) * 1099511628211ull;
    h ^= h >> 29;
  }
  for (; i < text.size(); ++i) {
    h = (h ^ static_cast<unsigned char>(text[i])) * 1099511628211ull;
  }
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return h;
}

StringPool::StringPool() : table_(1024, kNoString) {}

std::string_view StringPool::store(std::string_view text) {
  if (text.empty()) return std::string_view();
  if (text.size() > kBlockSize / 4) {
    large_.push_back(std::make_unique<char[]>(text.size()));
    std::memcpy(large_.back().get(), text.data(), text.size());
    text_bytes_ += text.size();
    return std::string_view(large_.back().get(), text.size());
  }
  if (blocks_.empty() || block_used_ + text.size() > block_size_) {
    blocks_.push_back(std::make_unique<char[]>(kBlockSize));
    block_used_ = 0;
    block_size_ = kBlockSize;
  }
  char* dst = blocks_.back().get() + block_used_;
  std::memcpy(dst, text.data(), text.size());
  block_used_ += text.size();
  text_bytes_ += text.size();
  return std::string_view(dst, text.size());
}

void StringPool::grow_table() {
  std::vector<StringId> bigger(table_.size() * 2, kNoString);
  const std::size_t mask = bigger.size() - 1;
  for (StringId id = 0; id < views_.size(); ++id) {
    std::size_t slot = hashes_[id] & mask;
    while (bigger[slot] != kNoString) slot = (slot + 1) & mask;
    bigger[slot] = id;
  }
  table_ = std::move(bigger);
}

StringId StringPool::find(std::string_view text) const {
  const std::uint64_t h = hash_bytes(text);
  const std::size_t mask = table_.size() - 1;
  for (std::size_t slot = h & mask;; slot = (slot + 1) & mask) {
    const StringId id = table_[slot];
    if (id == kNoString) return kNoString;
    if (hashes_[id] == h && views_[id] == text) return id;
  }
}

StringId StringPool::intern(std::string_view text) { return intern_hashed(text, hash_bytes(text)); }

StringId StringPool::intern_from(const StringPool& other, StringId id) {
  return intern_hashed(other.views_[id], other.hashes_[id]);
}

StringId StringPool::intern_hashed(std::string_view text, std::uint64_t h) {
  const std::size_t mask = table_.size() - 1;
  std::size_t slot = h & mask;
  for (;; slot = (slot + 1) & mask) {
    const StringId id = table_[slot];
    if (id == kNoString) break;
    if (hashes_[id] == h && views_[id] == text) return id;
  }
  const auto id = static_cast<StringId>(views_.size());
  views_.push_back(store(text));
  hashes_.push_back(h);
  table_[slot] = id;
  if (views_.size() * 2 > table_.size()) grow_table();
  return id;
}

void StringPool::clear() {
  views_.clear();
  hashes_.clear();
  std::fill(table_.begin(), table_.end(), kNoString);
  large_.clear();
  if (blocks_.size() > 1) blocks_.resize(1);
  block_used_ = 0;
  text_bytes_ = 0;
}

std::size_t StringPool::memory_bytes() const {
  return blocks_.size() * kBlockSize + text_bytes_ / 8 +
         views_.capacity() * sizeof(std::string_view) + hashes_.capacity() * 8 +
         table_.capacity() * sizeof(StringId);
}

}  // namespace loupe::core::trace
