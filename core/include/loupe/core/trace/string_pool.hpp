// Interned strings: each distinct byte string is stored once and named by a 32-bit id.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace loupe::core::trace {

using StringId = std::uint32_t;
inline constexpr StringId kNoString = 0xFFFFFFFFu;

class StringPool {
 public:
  StringPool();

  // The id of `text`, adding it on first sight.
  StringId intern(std::string_view text);
  // The id here of string `id` of `other` (adding it on first sight), reusing its hash.
  StringId intern_from(const StringPool& other, StringId id);
  // The id of `text` if it was interned, else kNoString.
  StringId find(std::string_view text) const;
  std::string_view view(StringId id) const { return views_[id]; }
  std::size_t size() const { return views_.size(); }
  // Forgets every string and keeps the first text block and the table's memory for reuse.
  void clear();
  // Bytes held by the pool (text blocks + tables), for memory reports.
  std::size_t memory_bytes() const;

 private:
  std::string_view store(std::string_view text);
  StringId intern_hashed(std::string_view text, std::uint64_t hash);
  void grow_table();

  std::vector<std::unique_ptr<char[]>> blocks_;  // small strings, packed
  std::vector<std::unique_ptr<char[]>> large_;   // one allocation per long string
  std::size_t block_used_ = 0;
  std::size_t block_size_ = 0;
  std::size_t text_bytes_ = 0;
  std::vector<std::string_view> views_;
  std::vector<std::uint64_t> hashes_;
  std::vector<StringId> table_;  // open addressing, kNoString = empty slot
};

std::uint64_t hash_bytes(std::string_view text);

}  // namespace loupe::core::trace
