#include "sandbox.hpp"

#include "syscall_filter.hpp"

#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

namespace loupe::core::isolation {

namespace {

// The ruleset attribute as newer kernels define it; the size passed tells the kernel which
// fields this process knows (Debian 12's headers stop at handled_access_fs).
struct RulesetAttr {
  std::uint64_t handled_access_fs = 0;
  std::uint64_t handled_access_net = 0;
  std::uint64_t scoped = 0;
};

constexpr std::uint64_t kFsWriteV1 = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                                     LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                                     LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                                     LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                                     LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;
constexpr std::uint64_t kFsRefer = std::uint64_t{1} << 13;     // ABI 2
constexpr std::uint64_t kFsTruncate = std::uint64_t{1} << 14;  // ABI 3
constexpr std::uint64_t kFsIoctlDev = std::uint64_t{1} << 15;  // ABI 5
constexpr std::uint64_t kNetBindTcp = std::uint64_t{1} << 0;   // ABI 4
constexpr std::uint64_t kNetConnectTcp = std::uint64_t{1} << 1;
constexpr std::uint64_t kScopeAbstractUnix = std::uint64_t{1} << 0;  // ABI 6
constexpr std::uint64_t kScopeSignal = std::uint64_t{1} << 1;

int query_landlock_abi() {
  const long abi =
      ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  return abi < 0 ? 0 : static_cast<int>(abi);
}

std::string forbid_writes(int abi) {
  RulesetAttr attr;
  std::size_t size = sizeof(attr.handled_access_fs);
  attr.handled_access_fs = kFsWriteV1;
  if (abi >= 2) attr.handled_access_fs |= kFsRefer;
  if (abi >= 3) attr.handled_access_fs |= kFsTruncate;
  if (abi >= 5) attr.handled_access_fs |= kFsIoctlDev;
  if (abi >= 4) {
    attr.handled_access_net = kNetBindTcp | kNetConnectTcp;
    size = offsetof(RulesetAttr, scoped);
  }
  if (abi >= 6) {
    attr.scoped = kScopeAbstractUnix | kScopeSignal;
    size = sizeof(attr);
  }
  const long fd = ::syscall(SYS_landlock_create_ruleset, &attr, size, 0);
  if (fd < 0) return std::string("landlock_create_ruleset: ") + std::strerror(errno);
  // No rule is added: nothing below any path may be written.
  const long rc = ::syscall(SYS_landlock_restrict_self, fd, 0);
  const int err = errno;
  ::close(static_cast<int>(fd));
  if (rc != 0) return std::string("landlock_restrict_self: ") + std::strerror(err);
  return {};
}

// Virtual memory the process has mapped now, in bytes (VmSize of /proc/self/status).
std::uint64_t mapped_bytes() {
  std::FILE* f = std::fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  std::uint64_t kib = 0;
  while (std::fgets(line, sizeof(line), f) != nullptr) {
    if (std::strncmp(line, "VmSize:", 7) == 0) {
      kib = std::strtoull(line + 7, nullptr, 10);
      break;
    }
  }
  std::fclose(f);
  return kib * 1024;
}

bool set_limit(int resource, rlim_t value) {
  const rlimit limit{value, value};
  return ::setrlimit(resource, &limit) == 0;
}

}  // namespace

int landlock_abi() {
  static const int abi = [] {
    const char* off = std::getenv("LOUPE_NO_LANDLOCK");
    if (off != nullptr && std::string_view(off) == "1") return 0;
    return query_landlock_abi();
  }();
  return abi;
}

bool memory_limit_supported() {
#if defined(__SANITIZE_ADDRESS__)
  return false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return false;
#else
  return true;
#endif
#else
  return true;
#endif
}

std::string apply_sandbox(const SandboxLimits& limits) noexcept {
  std::string problems;
  set_limit(RLIMIT_CORE, 0);  // a crashing plugin leaves no core file behind
  if (limits.memory_mb > 0 && memory_limit_supported()) {
    const std::uint64_t budget = limits.memory_mb << 20;
    if (!set_limit(RLIMIT_AS, static_cast<rlim_t>(mapped_bytes() + budget))) {
      problems += "cannot set the memory limit; ";
    }
  }
  if (limits.cpu_seconds > 0) {
    const rlimit cpu{static_cast<rlim_t>(limits.cpu_seconds),
                     static_cast<rlim_t>(limits.cpu_seconds + 1)};
    if (::setrlimit(RLIMIT_CPU, &cpu) != 0) problems += "cannot set the CPU limit; ";
  }
  ::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  problems += install_syscall_filter();
  if (limits.forbid_writes) {
    const int abi = landlock_abi();
    if (abi >= 1) {
      const std::string why = forbid_writes(abi);
      if (!why.empty()) problems += why;
    }
  }
  return problems;
}

}  // namespace loupe::core::isolation
