// The fallback where the kernel has no Landlock: what every file under some directories looked
// like before a plugin child ran, to compare with afterwards. Size, modification time, inode
// and change time are recorded; a plugin can set a file's modification time back, but not its
// change time (the kernel sets that on every write and every utimensat).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace loupe::core::isolation {

struct FileStamp {
  std::uintmax_t size = 0;
  std::int64_t mtime_ns = 0;
  std::int64_t ctime_ns = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileStamp&) const = default;
};

class DirectorySnapshot {
 public:
  // Records every entry (files, directories, links, not followed) below each directory.
  static DirectorySnapshot take(const std::vector<std::filesystem::path>& roots);
  // Paths added, removed or changed since `before`, sorted; at most `limit`.
  std::vector<std::string> changes_since(const DirectorySnapshot& before,
                                         std::size_t limit = 10) const;

 private:
  std::map<std::string, FileStamp> entries_;
};

}  // namespace loupe::core::isolation
