// What a plugin child may do: Linux Landlock takes away every filesystem write (and TCP, and
// signals to processes outside the child, where the kernel supports it), a seccomp filter takes
// away starting programs and non-local sockets (syscall_filter.hpp), resource limits cap its
// memory, CPU time and core dumps. Applied in the child, after fork and before any plugin code
// runs (docs/plugin-abi.md, "Isolation").
#pragma once

#include <cstdint>
#include <string>

namespace loupe::core::isolation {

// The Landlock ABI version this kernel offers (0: none). LOUPE_NO_LANDLOCK=1 in the environment
// reports 0, to exercise the fallback (tests, or kernels where Landlock misbehaves).
int landlock_abi();

struct SandboxLimits {
  bool forbid_writes = true;      // Landlock, when the kernel has it
  std::uint64_t memory_mb = 0;    // address space the child may add to what it inherits; 0: none
  std::uint64_t cpu_seconds = 0;  // RLIMIT_CPU; 0: none
};

// Whether the memory limit can be enforced in this build (not under AddressSanitizer, whose
// shadow memory needs terabytes of address space).
bool memory_limit_supported();

// Applies the limits to the calling process. Returns "" or what could not be applied.
std::string apply_sandbox(const SandboxLimits& limits) noexcept;

}  // namespace loupe::core::isolation
