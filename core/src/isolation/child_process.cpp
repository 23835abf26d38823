#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "loupe/core/text_escape.hpp"

namespace loupe::core::isolation {

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kMaxCapturedOutput = 64 * 1024;

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  Fd(Fd&& other) noexcept : fd_(other.release()) {}
  Fd& operator=(Fd&& other) noexcept {
    reset(other.release());
    return *this;
  }
  ~Fd() { reset(); }
  int get() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

bool make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end.reset(fds[0]);
  write_end.reset(fds[1]);
  return true;
}

// The wire fd of this child, for the new_handler (which may not allocate).
int g_wire_fd = -1;

void report_out_of_memory() {
  std::set_new_handler(nullptr);
  write_record(g_wire_fd, WireTag::OutOfMemory, {});
  throw std::bad_alloc();
}

[[noreturn]] void child_main(const ChildOptions& options, const std::function<void(int)>& body,
                             int wire_fd, int capture_fd) {
  ::setpgid(0, 0);
  // A crash ends the child with its signal, whatever handlers the host installed (a test
  // framework's, a sanitizer's): the parent reports "crashed with signal N".
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS}) {
    ::signal(sig, SIG_DFL);
  }
  // The child's stdout and stderr go to the capture pipe; stdin reads nothing.
  if (const int null_fd = ::open("/dev/null", O_RDONLY); null_fd >= 0) {
    ::dup2(null_fd, STDIN_FILENO);
    ::close(null_fd);
  }
  ::dup2(capture_fd, STDOUT_FILENO);
  ::dup2(capture_fd, STDERR_FILENO);
  g_wire_fd = wire_fd;
  const std::string problems = apply_sandbox(options.limits);
  if (!problems.empty() && options.limits.forbid_writes && landlock_abi() >= 1) {
    write_record(wire_fd, WireTag::Error, "the sandbox could not be applied: " + problems);
    write_record(wire_fd, WireTag::End, {});
    ::_exit(0);
  }
  std::set_new_handler(&report_out_of_memory);
  try {
    body(wire_fd);
  } catch (...) {
    write_record(wire_fd, WireTag::Error, "the host's child code failed unexpectedly");
  }
  write_record(wire_fd, WireTag::End, {});
  ::_exit(0);
}

// This process adopts orphaned descendants of its children, so none can outlive a run.
void become_subreaper() {
  static const bool done = [] {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
    return true;
  }();
  (void)done;
}

// Children of this process, from /proc/self/task/*/children.
std::set<pid_t> current_children() {
  std::set<pid_t> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
    std::ifstream in(task.path() / "children");
    pid_t pid = 0;
    while (in >> pid) out.insert(pid);
  }
  return out;
}

// Kills the child's process group and every descendant that re-parented to this process.
void kill_leftovers(pid_t group, const std::set<pid_t>& before) {
  ::kill(-group, SIGKILL);
  for (int round = 0; round < 64; ++round) {
    bool any = false;
    for (const pid_t pid : current_children()) {
      if (before.count(pid) > 0) continue;
      any = true;
      ::kill(pid, SIGKILL);
      int ignored = 0;
      ::waitpid(pid, &ignored, 0);
    }
    if (!any) break;
  }
}

int open_pidfd(pid_t pid) { return static_cast<int>(::syscall(SYS_pidfd_open, pid, 0)); }

void append_captured(std::string& captured, const char* data, std::size_t size) {
  if (captured.size() >= kMaxCapturedOutput) return;
  captured.append(data, std::min(size, kMaxCapturedOutput - captured.size()));
}

}  // namespace

std::string ChildReport::failure(const ChildOptions& options) const {
  const std::string memory = out_of_memory
                                 ? fmt::format(
                                       " after running out of memory under its limit of {} MB "
                                       "(--plugin-memory)",
                                       options.limits.memory_mb)
                                 : std::string();
  switch (end) {
    case ChildEnd::CouldNotStart:
      return "could not be started: " + start_error;
    case ChildEnd::TimedOut:
      return fmt::format("timed out after {:.1f} s and was killed",
                         static_cast<double>(options.timeout.count()) / 1000.0);
    case ChildEnd::CpuLimit:
      return fmt::format("exceeded its CPU-time limit of {} s and was killed",
                         options.limits.cpu_seconds);
    case ChildEnd::Crashed: {
      const char* name = ::strsignal(code);
      return fmt::format("crashed with signal {} ({}){}", code, name ? name : "?", memory);
    }
    case ChildEnd::Exited:
      return fmt::format("exited with code {}{}", code, memory);
    case ChildEnd::Finished:
      if (!wire_complete) return "ended without handing back complete output" + memory;
      return {};
  }
  return {};
}

ChildReport run_in_child(const ChildOptions& options, const std::function<void(int)>& body,
                         const std::function<void(const WireRecord&)>& on_log) {
  const auto start = Clock::now();
  ChildReport report;
  become_subreaper();
  Fd wire_read;
  Fd wire_write;
  Fd capture_read;
  Fd capture_write;
  if (!make_pipe(wire_read, wire_write) || !make_pipe(capture_read, capture_write)) {
    report.start_error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return report;
  }
  const std::set<pid_t> before = current_children();
  std::fflush(nullptr);  // do not duplicate buffered output into the child
  const pid_t pid = ::fork();
  if (pid < 0) {
    report.start_error = std::string("cannot fork: ") + std::strerror(errno);
    return report;
  }
  if (pid == 0) {
    wire_read.reset();
    capture_read.reset();
    // Keep the write ends open across the dup2s in child_main (they are close-on-exec only).
    child_main(options, body, wire_write.get(), capture_write.get());
  }
  ::setpgid(pid, pid);  // also done by the child; whichever runs first wins
  wire_write.reset();
  capture_write.reset();
  Fd pidfd(open_pidfd(pid));

  WireReader reader;
  const auto deadline = start + options.timeout;
  bool wire_open = true;
  bool capture_open = true;
  bool exited = false;
  bool timed_out = false;
  char buffer[65536];
  auto drain = [&](pollfd& pfd, bool& open, bool is_wire) {
    if ((pfd.revents & (POLLIN | POLLHUP | POLLERR)) == 0) return;
    const ssize_t n = ::read(pfd.fd, buffer, sizeof(buffer));
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) return;
    if (n <= 0) {
      open = false;
      return;
    }
    if (!is_wire) {
      append_captured(report.captured_output, buffer, static_cast<std::size_t>(n));
      return;
    }
    reader.feed(std::string_view(buffer, static_cast<std::size_t>(n)));
    while (auto record = reader.next()) {
      if (record->tag == WireTag::Log) {
        if (on_log) on_log(*record);
      } else if (record->tag == WireTag::OutOfMemory) {
        report.out_of_memory = true;
      } else {
        report.records.push_back(std::move(*record));
      }
    }
    if (reader.malformed()) open = false;
  };
  while (wire_open || capture_open) {
    const auto now = Clock::now();
    if (now >= deadline) {
      timed_out = true;
      break;
    }
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1;
    pollfd fds[3] = {{wire_open ? wire_read.get() : -1, POLLIN, 0},
                     {capture_open ? capture_read.get() : -1, POLLIN, 0},
                     {exited ? -1 : pidfd.get(), POLLIN, 0}};
    // Once the child has exited, a grandchild may still hold the pipes open: drain what is
    // there, then stop waiting.
    const int wait_ms = exited ? 0 : static_cast<int>(std::min<long long>(remaining, 1000));
    const int ready = ::poll(fds, 3, pidfd.get() >= 0 || exited ? wait_ms : std::min(wait_ms, 50));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) {
      if (exited) break;
      if (pidfd.get() < 0) {  // no pidfd (old kernel): look for the exit now and then
        int status = 0;
        if (::waitpid(pid, &status, WNOHANG | WNOWAIT | __WALL) == pid) exited = true;
      }
      continue;
    }
    drain(fds[0], wire_open, true);
    drain(fds[1], capture_open, false);
    if (fds[2].fd >= 0 && (fds[2].revents & POLLIN) != 0) exited = true;
  }
  if (timed_out) ::kill(-pid, SIGKILL);
  int wait_status = 0;
  while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  kill_leftovers(pid, before);
  report.wall_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
  report.wire_complete = reader.ended() && !reader.malformed();
  if (timed_out) {
    report.end = ChildEnd::TimedOut;
  } else if (WIFSIGNALED(wait_status)) {
    report.code = WTERMSIG(wait_status);
    report.end = report.code == SIGXCPU ? ChildEnd::CpuLimit : ChildEnd::Crashed;
  } else if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) != 0) {
    report.end = ChildEnd::Exited;
    report.code = WEXITSTATUS(wait_status);
  } else {
    report.end = ChildEnd::Finished;
  }
  return report;
}

void log_captured_output(const std::string& who, const std::string& captured) {
  if (captured.empty()) return;
  std::istringstream lines(captured);
  std::string line;
  while (std::getline(lines, line)) {
    spdlog::info("[{} output] {}", who, escape_for_terminal(line));
  }
  if (captured.size() >= kMaxCapturedOutput) {
    spdlog::info("[{} output] (cut at {} KiB)", who, kMaxCapturedOutput / 1024);
  }
}

}  // namespace loupe::core::isolation
