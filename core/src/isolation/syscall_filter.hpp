// A seccomp filter for plugin children: what Landlock does not cover. A plugin may not start
// programs (execve, execveat), open sockets other than AF_UNIX (UDP and raw sockets, which Landlock
// does not govern), trace or read other processes (ptrace, process_vm_readv/writev) or use
// io_uring (which can open sockets on its own). Each refused call fails with EPERM; nothing is
// killed. Installed after PR_SET_NO_NEW_PRIVS, before any plugin code runs (docs/plugin-abi.md,
// "Isolation").
#pragma once

#include <string>

namespace loupe::core::isolation {

// Whether this build knows the system call numbers of its architecture (x86-64, AArch64).
bool syscall_filter_supported();

// Installs the filter on the calling thread and every process it forks. Returns "" or why it
// could not be installed. LOUPE_NO_SYSCALL_FILTER=1 in the environment skips it (debugging).
std::string install_syscall_filter() noexcept;

}  // namespace loupe::core::isolation
