#include "sandbox.hpp"

#include "syscall_filter.hpp"

#include <linux/capability.h>
#include <linux/landlock.h>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "namespaces.hpp"

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

// The level the test switch asks for (sandbox.hpp).
enum class ForcedLevel { None, NoNamespaces, Landlock2, NoLandlock };

ForcedLevel forced_level() {
  const char* old = std::getenv("LOUPE_NO_LANDLOCK");
  if (old != nullptr && std::string_view(old) == "1") return ForcedLevel::NoLandlock;
  const char* level = std::getenv("LOUPE_TEST_SANDBOX_LEVEL");
  if (level == nullptr) return ForcedLevel::None;
  const std::string_view v(level);
  if (v == "no-namespaces") return ForcedLevel::NoNamespaces;
  if (v == "landlock-2") return ForcedLevel::Landlock2;
  if (v == "no-landlock") return ForcedLevel::NoLandlock;
  return ForcedLevel::None;
}

const Protections& protections() {
  static const Protections p = [] {
    Protections out;
    const ForcedLevel level = forced_level();
    out.namespaces = level == ForcedLevel::None && namespaces_supported();
    const int abi = query_landlock_abi();
    out.landlock_abi = level == ForcedLevel::NoLandlock  ? 0
                       : level == ForcedLevel::Landlock2 ? std::min(abi, 2)
                                                         : abi;
    const char* off = std::getenv("LOUPE_NO_SYSCALL_FILTER");
    out.seccomp = syscall_filter_supported() && !(off != nullptr && *off == '1');
    return out;
  }();
  return p;
}

std::string describe(const Protections& p) {
  std::string out = p.namespaces ? "namespaces (user, PID, IPC, network)" : "no namespaces";
  out += p.landlock_abi > 0 ? ", Landlock ABI " + std::to_string(p.landlock_abi) : ", no Landlock";
  out += p.seccomp ? ", seccomp" : ", no seccomp";
  out += ", no capabilities";
  return out;
}

int landlock_abi() { return protections().landlock_abi; }

bool writes_only_detected() { return landlock_abi() < 3 || !protections().seccomp; }

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

namespace {

// Drops every capability from the bounding, ambient, effective, permitted and inheritable
// sets (in the initial user namespace when run as root; in the child's own otherwise).
std::string drop_capabilities() {
  for (int cap = 0; cap <= 63; ++cap) ::prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
  ::prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
  __user_cap_header_struct header{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct data[2] = {};
  if (::syscall(SYS_capset, &header, data) != 0) {
    return std::string("capset: ") + std::strerror(errno) + "; ";
  }
  return {};
}

}  // namespace

int close_inherited_descriptors(int keep) noexcept {
  constexpr int kKept = 3;
  if (keep != kKept) {
    if (::dup2(keep, kKept) < 0) return keep;
    keep = kKept;
  }
  if (::syscall(SYS_close_range, kKept + 1, ~0U, 0) != 0) {
    const long most = std::min<long>(::sysconf(_SC_OPEN_MAX), 1 << 16);
    for (int fd = kKept + 1; fd < most; ++fd) ::close(fd);
  }
  return keep;
}

std::string apply_sandbox(const SandboxLimits& limits, pid_t self, pid_t host) noexcept {
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
  problems += drop_capabilities();
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) problems += "no-new-privileges; ";
  if (protections().seccomp) problems += install_syscall_filter(self, host);
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
