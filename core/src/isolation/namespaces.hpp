// New user, PID, IPC and network namespaces for a plugin child, as unprivileged sandboxes
// (bubblewrap, Chromium) create them: in the child's own user namespace it maps only its own
// user and group, so it holds no capability outside it; in its PID namespace it sees and signals
// only its own processes, and all of them die with the namespace's first process; SysV IPC
// objects die with its IPC namespace; its network namespace has no interface but a loopback
// that is down (docs/plugin-abi.md, "Isolation").
#pragma once

#include <string>

namespace loupe::core::isolation {

// Whether this kernel lets this process create the four namespaces (tried once, in a forked
// child, and remembered).
bool namespaces_supported();

// Moves the calling process into new user, IPC and network namespaces and makes its next child
// the first process of a new PID namespace. Returns "" or what failed.
std::string enter_namespaces() noexcept;

}  // namespace loupe::core::isolation
