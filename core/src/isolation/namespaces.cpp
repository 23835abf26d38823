#include "namespaces.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace loupe::core::isolation {

namespace {

constexpr int kFlags = CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWNET;

bool write_proc_file(const char* path, const char* text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const std::size_t size = std::strlen(text);
  const bool ok = ::write(fd, text, size) == static_cast<ssize_t>(size);
  ::close(fd);
  return ok;
}

}  // namespace

std::string enter_namespaces() noexcept {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  if (::unshare(kFlags) != 0) return std::string("unshare: ") + std::strerror(errno);
  // Map only this process's own user and group (allowed without any privilege outside).
  char map[64];
  std::snprintf(map, sizeof(map), "%u %u 1\n", static_cast<unsigned>(uid),
                static_cast<unsigned>(uid));
  if (!write_proc_file("/proc/self/uid_map", map)) {
    return std::string("uid_map: ") + std::strerror(errno);
  }
  if (!write_proc_file("/proc/self/setgroups", "deny")) {
    return std::string("setgroups: ") + std::strerror(errno);
  }
  std::snprintf(map, sizeof(map), "%u %u 1\n", static_cast<unsigned>(gid),
                static_cast<unsigned>(gid));
  if (!write_proc_file("/proc/self/gid_map", map)) {
    return std::string("gid_map: ") + std::strerror(errno);
  }
  return {};
}

bool namespaces_supported() {
  static const bool supported = [] {
    std::fflush(nullptr);
    const pid_t pid = ::fork();
    if (pid < 0) return false;
    if (pid == 0) {
      if (!enter_namespaces().empty()) ::_exit(1);
      const pid_t inner = ::fork();  // the first process of the new PID namespace
      if (inner < 0) ::_exit(1);
      if (inner == 0) ::_exit(::getpid() == 1 ? 0 : 1);
      int status = 0;
      if (::waitpid(inner, &status, 0) != inner) ::_exit(1);
      ::_exit(WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : 1);
    }
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
  }();
  return supported;
}

}  // namespace loupe::core::isolation
