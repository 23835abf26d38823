#include "directory_snapshot.hpp"

#include <sys/stat.h>

namespace loupe::core::isolation {

namespace fs = std::filesystem;

namespace {

std::int64_t nanoseconds(const timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
}

void record(std::map<std::string, FileStamp>& entries, const fs::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return;
  entries[path.string()] =
      FileStamp{static_cast<std::uintmax_t>(st.st_size), nanoseconds(st.st_mtim),
                nanoseconds(st.st_ctim), static_cast<std::uint64_t>(st.st_ino)};
}

}  // namespace

DirectorySnapshot DirectorySnapshot::take(const std::vector<fs::path>& roots) {
  DirectorySnapshot snapshot;
  for (const auto& root : roots) {
    std::error_code ec;
    if (root.empty() || !fs::is_directory(root, ec)) continue;
    record(snapshot.entries_, root);
    for (auto it = fs::recursive_directory_iterator(
             root, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
      record(snapshot.entries_, it->path());
    }
  }
  return snapshot;
}

std::vector<std::string> DirectorySnapshot::changes_since(const DirectorySnapshot& before,
                                                          std::size_t limit) const {
  std::vector<std::string> changes;
  auto add = [&](const std::string& what) {
    if (changes.size() < limit) changes.push_back(what);
  };
  for (const auto& [path, stamp] : entries_) {
    const auto it = before.entries_.find(path);
    if (it == before.entries_.end()) {
      add(path + " (created)");
    } else if (!(it->second == stamp)) {
      add(path + " (modified)");
    }
  }
  for (const auto& [path, stamp] : before.entries_) {
    if (entries_.count(path) == 0) add(path + " (removed)");
  }
  return changes;
}

}  // namespace loupe::core::isolation
