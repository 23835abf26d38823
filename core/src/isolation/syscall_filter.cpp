#include "syscall_filter.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace loupe::core::isolation {

namespace {

#if defined(__x86_64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_X86_64;
constexpr bool kKnownArch = true;
#elif defined(__aarch64__)
constexpr std::uint32_t kNativeArch = AUDIT_ARCH_AARCH64;
constexpr bool kKnownArch = true;
#else
constexpr std::uint32_t kNativeArch = 0;
constexpr bool kKnownArch = false;
#endif

#if defined(__x86_64__) || defined(__aarch64__)

constexpr std::uint32_t kOffsetNr = offsetof(seccomp_data, nr);
constexpr std::uint32_t kOffsetArch = offsetof(seccomp_data, arch);
// The low 32 bits of argument i (little-endian on both supported architectures). Every argument
// checked here is an int or unsigned int the kernel truncates to 32 bits itself.
constexpr std::uint32_t arg_offset(int i) {
  return static_cast<std::uint32_t>(offsetof(seccomp_data, args) + 8 * i);
}

constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kRefuse = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);
constexpr std::uint32_t kNoSuchCall = SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA);

// Numbers shared by every architecture (the unified table from 424 on); older headers may not
// name them.
constexpr std::uint32_t kPidfdSendSignal = 424;
constexpr std::uint32_t kIoUringSetup = 425;
constexpr std::uint32_t kIoUringEnter = 426;
constexpr std::uint32_t kIoUringRegister = 427;
constexpr std::uint32_t kOpenTree = 428;
constexpr std::uint32_t kMoveMount = 429;
constexpr std::uint32_t kFsopen = 430;
constexpr std::uint32_t kFsconfig = 431;
constexpr std::uint32_t kFsmount = 432;
constexpr std::uint32_t kFspick = 433;
constexpr std::uint32_t kPidfdOpen = 434;
constexpr std::uint32_t kClone3 = 435;
constexpr std::uint32_t kPidfdGetfd = 438;
constexpr std::uint32_t kProcessMadvise = 440;
constexpr std::uint32_t kMountSetattr = 442;
constexpr std::uint32_t kFchmodat2 = 452;
constexpr std::uint32_t kSetxattrat = 463;
constexpr std::uint32_t kRemovexattrat = 466;

// ioctl requests refused on any descriptor: inode flags (chattr +i, +a), the project/xflags
// attribute, and injecting input into (or driving) a terminal.
constexpr std::uint32_t kFsIocSetflags = 0x40086602U;    // _IOW('f', 2, long)
constexpr std::uint32_t kFsIoc32Setflags = 0x40046602U;  // _IOW('f', 2, int)
constexpr std::uint32_t kFsIocFssetxattr = 0x401c5820U;  // _IOW('X', 32, struct fsxattr)
constexpr std::uint32_t kTiocsti = 0x5412U;
constexpr std::uint32_t kTioclinux = 0x541cU;

// Namespace-creating clone flags (CLONE_NEWTIME, NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER,
// NEWPID, NEWNET).
constexpr std::uint32_t kCloneNamespaceFlags = 0x00000080U | 0x00020000U | 0x02000000U |
                                               0x04000000U | 0x08000000U | 0x10000000U |
                                               0x20000000U | 0x40000000U;

// Calls refused outright.
const std::vector<std::uint32_t>& refused_calls() {
  static const std::vector<std::uint32_t> calls = {
    // starting programs
    SYS_execve,
    SYS_execveat,
    // other processes' memory and descriptors
    SYS_ptrace,
    SYS_process_vm_readv,
    SYS_process_vm_writev,
    SYS_kcmp,
    kPidfdOpen,
    kPidfdGetfd,
    kPidfdSendSignal,
    kProcessMadvise,
    // io_uring (opens sockets and files on its own)
    kIoUringSetup,
    kIoUringEnter,
    kIoUringRegister,
    // sockets: a plugin has no one to talk to (socketpair still works)
    SYS_socket,
    // SysV IPC objects outlive the process; perf events, BPF and keys reach the whole system
    SYS_shmget,
    SYS_msgget,
    SYS_semget,
    SYS_perf_event_open,
    SYS_bpf,
    SYS_keyctl,
    SYS_add_key,
    SYS_request_key,
    SYS_userfaultfd,
    SYS_fanotify_init,
    // truncating a file by name, which Landlock governs only from ABI 3 (ftruncate needs a
    // descriptor open for writing, which Landlock refuses from ABI 1)
    SYS_truncate,
  // file metadata, which Landlock does not govern
#if defined(SYS_chmod)
    SYS_chmod,
    SYS_chown,
    SYS_lchown,
    SYS_utime,
    SYS_utimes,
    SYS_futimesat,
#endif
    SYS_fchmod,
    SYS_fchmodat,
    kFchmodat2,
    SYS_fchown,
    SYS_fchownat,
    SYS_utimensat,
    SYS_setxattr,
    SYS_lsetxattr,
    SYS_fsetxattr,
    SYS_removexattr,
    SYS_lremovexattr,
    SYS_fremovexattr,
    kSetxattrat,
    kRemovexattrat,
    SYS_name_to_handle_at,
    SYS_open_by_handle_at,
    // mounts and namespaces
    SYS_mount,
    SYS_umount2,
    SYS_pivot_root,
    SYS_unshare,
    SYS_setns,
    kOpenTree,
    kMoveMount,
    kFsopen,
    kFsconfig,
    kFsmount,
    kFspick,
    kMountSetattr
  };
  return calls;
}

// One instruction of a rule, with its jump targets symbolic: the next instruction, or the
// rule's closing "refuse" / "allow".
enum class To : std::uint8_t { Next, Refuse, Allow };
struct Step {
  sock_filter op;
  To if_true = To::Next;
  To if_false = To::Next;
};

Step load_arg(int i) { return {sock_filter{BPF_LD | BPF_W | BPF_ABS, 0, 0, arg_offset(i)}}; }
Step equals(std::uint32_t k, To if_true, To if_false) {
  return {sock_filter{BPF_JMP | BPF_JEQ | BPF_K, 0, 0, k}, if_true, if_false};
}
Step has_bits(std::uint32_t k, To if_true, To if_false) {
  return {sock_filter{BPF_JMP | BPF_JSET | BPF_K, 0, 0, k}, if_true, if_false};
}
Step jump_to(To target) { return {sock_filter{BPF_JMP | BPF_JA, 0, 0, 0}, target, target}; }

class Program {
 public:
  void emit(sock_filter op) { code_.push_back(op); }
  // A rule for one call: when the number matches, run `steps`, which end at refuse or allow.
  void rule(std::uint32_t nr, const std::vector<Step>& steps) {
    const std::size_t size = steps.size() + 2;  // the steps, then refuse, then allow
    emit(sock_filter{BPF_JMP | BPF_JEQ | BPF_K, 0, static_cast<std::uint8_t>(size), nr});
    const std::size_t refuse_at = steps.size();
    for (std::size_t i = 0; i < steps.size(); ++i) {
      sock_filter op = steps[i].op;
      auto offset = [&](To to) -> std::uint32_t {
        if (to == To::Next) return 0;
        const std::size_t target = to == To::Refuse ? refuse_at : refuse_at + 1;
        return static_cast<std::uint32_t>(target - i - 1);
      };
      if (BPF_OP(op.code) == BPF_JA) {
        op.k = offset(steps[i].if_true);
      } else if (BPF_CLASS(op.code) == BPF_JMP) {
        op.jt = static_cast<std::uint8_t>(offset(steps[i].if_true));
        op.jf = static_cast<std::uint8_t>(offset(steps[i].if_false));
      }
      emit(op);
    }
    emit(sock_filter{BPF_RET | BPF_K, 0, 0, kRefuse});
    emit(sock_filter{BPF_RET | BPF_K, 0, 0, kAllow});
  }
  void refuse(std::uint32_t nr, std::uint32_t action = kRefuse) {
    emit(sock_filter{BPF_JMP | BPF_JEQ | BPF_K, 0, 1, nr});
    emit(sock_filter{BPF_RET | BPF_K, 0, 0, action});
  }
  std::vector<sock_filter>& code() { return code_; }

 private:
  std::vector<sock_filter> code_;
};

// Argument `arg` must be 0 (the caller) or the caller's own id.
std::vector<Step> only_self(int arg, pid_t self) {
  return {load_arg(arg), equals(0, To::Allow, To::Next),
          equals(static_cast<std::uint32_t>(self), To::Allow, To::Refuse)};
}

// A signal's target (argument `arg`) may be neither the host nor a process group (a negative
// id, -1 included).
std::vector<Step> not_host(int arg, pid_t host) {
  std::vector<Step> steps = {load_arg(arg), has_bits(0x80000000U, To::Refuse, To::Next)};
  if (host > 0) {
    steps.push_back(equals(static_cast<std::uint32_t>(host), To::Refuse, To::Allow));
  } else {
    steps.push_back(jump_to(To::Allow));
  }
  return steps;
}

#endif

}  // namespace

bool syscall_filter_supported() { return kKnownArch; }

std::string install_syscall_filter(pid_t self, pid_t host) noexcept {
  if (!kKnownArch) return "";
  if (const char* off = std::getenv("LOUPE_NO_SYSCALL_FILTER"); off != nullptr && *off == '1') {
    return "";
  }
#if defined(__x86_64__) || defined(__aarch64__)
  try {
    Program p;
    // A foreign ABI (i386 through int 0x80, x32 numbers) is refused wholesale.
    p.emit(sock_filter{BPF_LD | BPF_W | BPF_ABS, 0, 0, kOffsetArch});
    p.emit(sock_filter{BPF_JMP | BPF_JEQ | BPF_K, 1, 0, kNativeArch});
    p.emit(sock_filter{BPF_RET | BPF_K, 0, 0, kRefuse});
    p.emit(sock_filter{BPF_LD | BPF_W | BPF_ABS, 0, 0, kOffsetNr});
#if defined(__x86_64__)
    p.emit(sock_filter{BPF_JMP | BPF_JGE | BPF_K, 0, 1, 0x40000000U});
    p.emit(sock_filter{BPF_RET | BPF_K, 0, 0, kRefuse});
#endif
    for (const std::uint32_t call : refused_calls()) p.refuse(call);
    // clone3 takes its flags in memory the filter cannot read: ENOSYS makes libc use clone.
    p.refuse(kClone3, kNoSuchCall);
    p.rule(SYS_clone, {load_arg(0), has_bits(kCloneNamespaceFlags, To::Refuse, To::Allow)});
    if (self > 0) {
      // Calls that act on a process: on the caller only.
      for (const std::uint32_t call :
           {SYS_prlimit64, SYS_sched_setaffinity, SYS_sched_setscheduler, SYS_sched_setparam,
            SYS_sched_setattr, SYS_migrate_pages, SYS_move_pages}) {
        p.rule(call, only_self(0, self));
      }
      // setpriority(PRIO_PROCESS = 0, who) and ioprio_set(IOPRIO_WHO_PROCESS = 1, who) only.
      p.rule(SYS_setpriority, {load_arg(0), equals(0, To::Next, To::Refuse), load_arg(1),
                               equals(0, To::Allow, To::Next),
                               equals(static_cast<std::uint32_t>(self), To::Allow, To::Refuse)});
      p.rule(SYS_ioprio_set, {load_arg(0), equals(1, To::Next, To::Refuse), load_arg(1),
                              equals(0, To::Allow, To::Next),
                              equals(static_cast<std::uint32_t>(self), To::Allow, To::Refuse)});
      // Signals: not to the host, not to a process group.
      for (const std::uint32_t call :
           {SYS_kill, SYS_tkill, SYS_tgkill, SYS_rt_sigqueueinfo, SYS_rt_tgsigqueueinfo}) {
        p.rule(call, not_host(0, host));
      }
      // setpgid may make a process a group leader, not move it into another group.
      p.rule(SYS_setpgid, only_self(1, self));
    } else {
      // In its own PID namespace a process id names only the plugin's own processes, but a
      // user id names every process of that user: PRIO_USER (2) and IOPRIO_WHO_USER (3) are
      // refused.
      p.rule(SYS_setpriority, {load_arg(0), equals(2, To::Refuse, To::Allow)});
      p.rule(SYS_ioprio_set, {load_arg(0), equals(3, To::Refuse, To::Allow)});
    }
    p.rule(SYS_ioctl,
           {load_arg(1), equals(kFsIocSetflags, To::Refuse, To::Next),
            equals(kFsIoc32Setflags, To::Refuse, To::Next),
            equals(kFsIocFssetxattr, To::Refuse, To::Next), equals(kTiocsti, To::Refuse, To::Next),
            equals(kTioclinux, To::Refuse, To::Allow)});
    p.emit(sock_filter{BPF_RET | BPF_K, 0, 0, kAllow});

    auto& code = p.code();
    sock_fprog fprog{static_cast<unsigned short>(code.size()), code.data()};
    if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) {
      return std::string("seccomp: ") + std::strerror(errno) + "; ";
    }
  } catch (...) {
    return "seccomp: out of memory; ";
  }
#else
  (void)self;
  (void)host;
#endif
  return "";
}

}  // namespace loupe::core::isolation
