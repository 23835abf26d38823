// A seccomp filter for plugin children: what Landlock does not cover (docs/plugin-abi.md,
// "Isolation", lists every rule). A plugin may not start programs, open sockets (any family; a
// socketpair still works), trace or read other processes, use io_uring, SysV IPC, perf events,
// BPF or the kernel keyring, truncate a file by name, change file metadata (mode, owner, times, extended attributes,
// inode flags such as immutable), inject terminal input, mount or enter namespaces. Calls that
// take a process id (prlimit64, setpriority, sched_set*, ioprio_set) act only on the calling
// process; signals may not target the host or a process group; setpgid may not join another
// group. Each refused call fails with EPERM (clone3 with ENOSYS, so that libc falls back to the
// checked clone); nothing is killed. Installed after PR_SET_NO_NEW_PRIVS, before any plugin code
// runs.
#pragma once

#include <sys/types.h>

#include <string>

namespace loupe::core::isolation {

// Whether this build knows the system call numbers of its architecture (x86-64, AArch64).
bool syscall_filter_supported();

// Installs the filter on the calling thread and every process it forks. `self` is the calling
// process (getpid()) and `host` the host process; both 0 when the child runs in its own PID
// namespace, where the rules on process ids are not needed (only the per-user ones remain). Returns
// "" or why it could not be installed. LOUPE_NO_SYSCALL_FILTER=1 in the environment skips it
// (debugging).
std::string install_syscall_filter(pid_t self, pid_t host) noexcept;

}  // namespace loupe::core::isolation
