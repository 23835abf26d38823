// What a plugin child may do. In layers, each applied in the child after fork and before any
// plugin code runs (docs/plugin-abi.md, "Isolation"; per-kernel matrix in docs/reliability.md):
// new user, PID, IPC and network namespaces where the kernel allows them (child_process.hpp
// creates them); Linux Landlock takes away every filesystem write (and TCP, and signals to
// processes outside the child, where the kernel supports it); a seccomp filter takes away
// starting programs, sockets, other processes and file metadata (syscall_filter.hpp); every
// capability is dropped; resource limits cap its memory, CPU time and core dumps.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>

namespace loupe::core::isolation {

// The sandbox level in force: what this kernel offers, lowered by the test switch
// LOUPE_TEST_SANDBOX_LEVEL (read by the host only; docs/reliability.md, "Kernel matrix"):
// "no-namespaces", "landlock-2" (no namespaces, only Landlock ABI 2's rights), "no-landlock" (no
// namespaces, no Landlock). LOUPE_NO_LANDLOCK=1 is the older spelling of "no-landlock".
struct Protections {
  bool namespaces = false;  // new user, PID, IPC and network namespaces for each child
  int landlock_abi = 0;     // the Landlock ABI whose rights are used; 0: none
  bool seccomp = false;     // the system-call filter
};
const Protections& protections();

// "namespaces (user, PID, IPC, network), Landlock ABI 7, seccomp, no capabilities" or the like.
std::string describe(const Protections& p);

// The Landlock ABI version whose rights are used (protections().landlock_abi).
int landlock_abi();

// Whether a plugin could change a file below a protected directory without being refused by the
// kernel (no Landlock, or a Landlock without the truncate right, or no seccomp filter for
// metadata): then the host compares the directories before and after each child.
bool writes_only_detected();

struct SandboxLimits {
  bool forbid_writes = true;      // Landlock, when the kernel has it
  std::uint64_t memory_mb = 0;    // address space the child may add to what it inherits; 0: none
  std::uint64_t cpu_seconds = 0;  // RLIMIT_CPU; 0: none
};

// Whether the memory limit can be enforced in this build (not under AddressSanitizer, whose
// shadow memory needs terabytes of address space).
bool memory_limit_supported();

// Applies the limits to the calling process: drops every capability, sets no-new-privileges,
// installs the system-call filter and Landlock. `self` and `host` are as
// install_syscall_filter takes them. Returns "" or what could not be applied.
std::string apply_sandbox(const SandboxLimits& limits, pid_t self, pid_t host) noexcept;

// Closes every descriptor but 0, 1, 2 and `keep` (which is moved to 3 first); returns the new
// number of `keep`.
int close_inherited_descriptors(int keep) noexcept;

}  // namespace loupe::core::isolation
