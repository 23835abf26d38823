#include "loupe/core/util/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

namespace loupe::core {

namespace fs = std::filesystem;

namespace {
std::string errno_text() { return std::strerror(errno); }

// Closes the descriptor and removes the temporary file unless released.
class TempFile {
 public:
  explicit TempFile(const fs::path& target) {
    path_ = target;
    path_ += ".tmp.XXXXXX";
    std::string pattern = path_.string();
    fd_ = ::mkstemp(pattern.data());
    if (fd_ < 0) {
      throw std::runtime_error("cannot create a temporary file next to " + target.string() + ": " +
                               errno_text());
    }
    path_ = pattern;
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_) ::unlink(path_.c_str());
  }
  int fd() const { return fd_; }
  const fs::path& path() const { return path_; }
  void close_checked() {
    const int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0)
      throw std::runtime_error("cannot close " + path_.string() + ": " + errno_text());
  }
  void mark_committed() { committed_ = true; }

 private:
  fs::path path_;
  int fd_ = -1;
  bool committed_ = false;
};
}  // namespace

namespace {

void create_parent(const fs::path& path) {
  std::error_code ec;
  if (path.has_parent_path()) {
    fs::create_directories(path.parent_path(), ec);
    if (ec) {
      throw std::runtime_error("cannot create directory " + path.parent_path().string() + ": " +
                               ec.message());
    }
  }
}

// Writes `bytes` to a new temporary file next to `path` (not yet flushed or renamed).
std::unique_ptr<TempFile> write_temp(const fs::path& path, std::string_view bytes) {
  create_parent(path);
  auto temp = std::make_unique<TempFile>(path);
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(temp->fd(), bytes.data() + written, bytes.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("cannot write " + path.string() + ": " + errno_text());
    }
    written += static_cast<size_t>(n);
  }
  if (::fchmod(temp->fd(), 0644) != 0) {
    throw std::runtime_error("cannot set the mode of " + path.string() + ": " + errno_text());
  }
  return temp;
}

void rename_into_place(TempFile& temp, const fs::path& path) {
  temp.close_checked();
  if (::rename(temp.path().c_str(), path.c_str()) != 0) {
    throw std::runtime_error("cannot move the new " + path.string() +
                             " into place: " + errno_text());
  }
  temp.mark_committed();
}

}  // namespace

void write_file_atomically(const fs::path& path, std::string_view bytes) {
  auto temp = write_temp(path, bytes);
  if (::fsync(temp->fd()) != 0) {
    throw std::runtime_error("cannot flush " + path.string() + ": " + errno_text());
  }
  rename_into_place(*temp, path);
}

void write_files_atomically(const std::vector<std::pair<fs::path, std::string_view>>& files) {
  std::vector<std::unique_ptr<TempFile>> temps;
  temps.reserve(files.size());
  for (const auto& [path, bytes] : files) temps.push_back(write_temp(path, bytes));
  // One filesystem-wide flush instead of one fsync per file: the data of every temporary is on
  // disk before any of them replaces its target.
  if (!temps.empty() && ::syncfs(temps.front()->fd()) != 0) {
    throw std::runtime_error("cannot flush the files written next to " +
                             files.front().first.string() + ": " + errno_text());
  }
  for (std::size_t i = 0; i < files.size(); ++i) rename_into_place(*temps[i], files[i].first);
}

}  // namespace loupe::core
