#include "syscall_filter.hpp"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>

#include <array>
#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>

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

constexpr std::uint32_t kOffsetNr = offsetof(seccomp_data, nr);
constexpr std::uint32_t kOffsetArch = offsetof(seccomp_data, arch);
// The low 32 bits of the first argument (little-endian on both supported architectures).
constexpr std::uint32_t kOffsetArg0 = offsetof(seccomp_data, args);

constexpr sock_filter statement(std::uint16_t code, std::uint32_t k) {
  return sock_filter{code, 0, 0, k};
}
constexpr sock_filter jump(std::uint16_t code, std::uint32_t k, std::uint8_t if_true,
                           std::uint8_t if_false) {
  return sock_filter{code, if_true, if_false, k};
}

constexpr std::uint32_t kAllow = SECCOMP_RET_ALLOW;
constexpr std::uint32_t kRefuse = SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA);

#if defined(__x86_64__) || defined(__aarch64__)
// Calls refused outright. io_uring_setup is 425 on both architectures; older headers may not
// name it.
constexpr std::array<std::uint32_t, 6> kRefusedCalls = {
    SYS_execve, SYS_execveat, SYS_ptrace, SYS_process_vm_readv, SYS_process_vm_writev, 425};
#endif

}  // namespace

bool syscall_filter_supported() { return kKnownArch; }

std::string install_syscall_filter() noexcept {
  if (!kKnownArch) return "";
  if (const char* off = std::getenv("LOUPE_NO_SYSCALL_FILTER"); off != nullptr && *off == '1') {
    return "";
  }
#if defined(__x86_64__) || defined(__aarch64__)
  // Layout: check the architecture (a foreign ABI, such as i386 calls through int 0x80, is refused
  // wholesale; so are x32 numbers), then one comparison per refused call, then socket(): only
  // AF_UNIX passes.
  constexpr std::size_t kCalls = kRefusedCalls.size();
  std::array<sock_filter, 4 + kCalls + 5> program{};
  std::size_t at = 0;
  const auto refuse_index = static_cast<std::uint8_t>(program.size() - 1);
  const auto allow_index = static_cast<std::uint8_t>(program.size() - 2);
  auto to = [&](std::uint8_t target) { return static_cast<std::uint8_t>(target - at - 1); };
  program[at] = statement(BPF_LD | BPF_W | BPF_ABS, kOffsetArch);
  ++at;
  program[at] = jump(BPF_JMP | BPF_JEQ | BPF_K, kNativeArch, 0, to(refuse_index));
  ++at;
  program[at] = statement(BPF_LD | BPF_W | BPF_ABS, kOffsetNr);
  ++at;
#if defined(__x86_64__)
  constexpr std::uint32_t kX32Bit = 0x40000000U;
  program[at] = jump(BPF_JMP | BPF_JGE | BPF_K, kX32Bit, to(refuse_index), 0);
#else
  program[at] = jump(BPF_JMP | BPF_JA, 0, 0, 0);  // no foreign numbering on AArch64
#endif
  ++at;
  for (const std::uint32_t call : kRefusedCalls) {
    program[at] = jump(BPF_JMP | BPF_JEQ | BPF_K, call, to(refuse_index), 0);
    ++at;
  }
  program[at] = jump(BPF_JMP | BPF_JEQ | BPF_K, SYS_socket, 0, to(allow_index));
  ++at;
  program[at] = statement(BPF_LD | BPF_W | BPF_ABS, kOffsetArg0);
  ++at;
  program[at] = jump(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, to(allow_index), to(refuse_index));
  ++at;
  program[allow_index] = statement(BPF_RET | BPF_K, kAllow);
  program[refuse_index] = statement(BPF_RET | BPF_K, kRefuse);

  sock_fprog fprog{static_cast<unsigned short>(program.size()), program.data()};
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &fprog, 0, 0) != 0) {
    return std::string("seccomp: ") + std::strerror(errno) + "; ";
  }
#endif
  return "";
}

}  // namespace loupe::core::isolation
