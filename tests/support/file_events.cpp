#include "file_events.hpp"

#include <sys/inotify.h>
#include <unistd.h>

namespace loupe::test {

namespace fs = std::filesystem;

FileEvents::FileEvents() : fd_(::inotify_init1(IN_NONBLOCK | IN_CLOEXEC)) {}

FileEvents::~FileEvents() {
  if (fd_ >= 0) ::close(fd_);
}

bool FileEvents::watch(const fs::path& dir) {
  const int wd =
      ::inotify_add_watch(fd_, dir.c_str(), IN_CLOSE_WRITE | IN_MOVED_TO | IN_CLOSE_NOWRITE);
  if (wd < 0) return false;
  dirs_[wd] = dir;
  return true;
}

bool FileEvents::watches(const fs::path& dir) const {
  for (const auto& [wd, path] : dirs_) {
    if (path == dir) return true;
  }
  return false;
}

std::string FileEvents::unwatched_file(const fs::path& root) const {
  for (const auto& entry : fs::recursive_directory_iterator(root)) {
    if (entry.is_regular_file() && !watches(entry.path().parent_path())) {
      return entry.path().string();
    }
  }
  return {};
}

std::string listed(const std::set<std::string>& names) {
  std::string out;
  for (const auto& name : names) out += (out.empty() ? "" : " ") + name;
  return out;
}

std::set<std::string> FileEvents::reread_after_write(const fs::path& root) {
  std::set<std::string> reread;
  alignas(inotify_event) char buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd_, buffer, sizeof buffer);
    if (n <= 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* event = reinterpret_cast<const inotify_event*>(buffer + at);
      at += static_cast<ssize_t>(sizeof(inotify_event) + event->len);
      if ((event->mask & IN_Q_OVERFLOW) != 0) overflowed_ = true;
      if (event->len == 0 || (event->mask & IN_ISDIR) != 0) continue;
      const auto dir = dirs_.find(event->wd);
      if (dir == dirs_.end()) continue;
      const std::string name = (dir->second / event->name).lexically_relative(root).string();
      if ((event->mask & (IN_CLOSE_WRITE | IN_MOVED_TO)) != 0) written_.insert(name);
      if ((event->mask & IN_CLOSE_NOWRITE) != 0 && written_.count(name) != 0) {
        reread.insert(name);
      }
    }
  }
  return reread;
}

}  // namespace loupe::test
