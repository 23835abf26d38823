#pragma once
// Which files of some directories were opened for reading after they were written, seen through
// inotify: every process's opens count (the host's, its plugin children's, a rank's child's), and
// nothing has to be traced. Used to check that a run reads back none of its own outputs
// (docs/architecture.md, "Embedding Loupe").
#include <cstddef>
#include <filesystem>
#include <map>
#include <set>
#include <string>

namespace loupe::test {

class FileEvents {
 public:
  FileEvents();
  ~FileEvents();
  FileEvents(const FileEvents&) = delete;
  FileEvents& operator=(const FileEvents&) = delete;

  bool ok() const { return fd_ >= 0; }
  // Watches the files directly in `dir` (not below); false when it cannot.
  bool watch(const std::filesystem::path& dir);
  bool watches(const std::filesystem::path& dir) const;
  // A file below `root` in a folder not watched (a read-back there would go unseen); "" if none.
  std::string unwatched_file(const std::filesystem::path& root) const;

  // Files (relative to `root`) opened for reading after they were written (closed after writing,
  // or renamed into place), among the events since the last call.
  std::set<std::string> reread_after_write(const std::filesystem::path& root);
  // The kernel dropped events (its queue was full): the answer above is incomplete.
  bool overflowed() const { return overflowed_; }
  // How many files were seen written so far.
  std::size_t written() const { return written_.size(); }

 private:
  int fd_;
  std::map<int, std::filesystem::path> dirs_;
  std::set<std::string> written_;
  bool overflowed_ = false;
};

// The names, space-separated, for a message.
std::string listed(const std::set<std::string>& names);

}  // namespace loupe::test
