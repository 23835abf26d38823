#include "child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
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
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "loupe/core/util/text_escape.hpp"
#include "namespaces.hpp"

namespace loupe::core::isolation {

namespace {

using Clock = std::chrono::steady_clock;
// How long the host waits for a killed child to end, and keeps killing what it left.
constexpr std::chrono::milliseconds kReapPatience{5000};

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

// Ends this process the way `status` (a wait status) says another one ended: the same exit
// code, or the same signal.
[[noreturn]] void end_like(int status) {
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    ::signal(sig, SIG_DFL);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
    ::_exit(128 + sig);
  }
  ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

[[noreturn]] void fail_start(int wire_fd, const std::string& why) {
  write_record(wire_fd, WireTag::Error, "the sandbox could not be applied: " + why);
  write_record(wire_fd, WireTag::End, {});
  ::_exit(0);
}

// The process that runs the host's child code: sandboxed, every inherited descriptor but the
// wire and stdio closed. `self` and `host` as install_syscall_filter takes them.
[[noreturn]] void run_body(const ChildOptions& options, const std::function<void(int)>& body,
                           int wire_fd, pid_t self, pid_t host) {
  wire_fd = close_inherited_descriptors(wire_fd);
  g_wire_fd = wire_fd;
  const std::string problems = apply_sandbox(options.limits, self, host);
  // Fail closed: a layer the host believes in force that cannot be applied runs no plugin code.
  if (!problems.empty()) {
    fail_start(wire_fd, problems);
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

// With namespaces: this process (outside) enters new namespaces, forks the first process of the
// PID namespace, which forks the one that runs the body. The first process reaps whatever the
// body leaves and, when the body's process ends, exits, and the kernel kills everything left in
// the namespace. Its status comes back here through a pipe and this process ends the same way.
[[noreturn]] void run_namespaced(const ChildOptions& options, const std::function<void(int)>& body,
                                 int wire_fd) {
  if (const std::string why = enter_namespaces(); !why.empty()) fail_start(wire_fd, why);
  int status_pipe[2];
  if (::pipe2(status_pipe, O_CLOEXEC) != 0) fail_start(wire_fd, "no pipe");
  const pid_t init = ::fork();
  if (init < 0) fail_start(wire_fd, "cannot fork the namespace's first process");
  if (init == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);  // dies, with its namespace, if the parent does
    ::close(status_pipe[0]);
    const pid_t worker = ::fork();
    if (worker < 0) fail_start(wire_fd, "cannot fork in the PID namespace");
    if (worker == 0) {
      ::close(status_pipe[1]);
      run_body(options, body, wire_fd, 0, 0);
    }
    ::close(wire_fd);
    int worker_status = 0;
    for (;;) {
      int status = 0;
      const pid_t done = ::waitpid(-1, &status, __WALL);
      if (done == worker) {
        worker_status = status;
        break;
      }
      if (done < 0 && errno != EINTR) break;
    }
    (void)!::write(status_pipe[1], &worker_status, sizeof(worker_status));
    ::_exit(0);
  }
  ::close(status_pipe[1]);
  ::close(wire_fd);
  int ignored = 0;
  while (::waitpid(init, &ignored, 0) < 0 && errno == EINTR) {
  }
  int worker_status = 0;
  if (::read(status_pipe[0], &worker_status, sizeof(worker_status)) !=
      static_cast<ssize_t>(sizeof(worker_status))) {
    worker_status = SIGKILL;  // the namespace was killed from outside
  }
  end_like(worker_status);
}

[[noreturn]] void child_main(const ChildOptions& options, const std::function<void(int)>& body,
                             int wire_fd, int capture_fd) {
  ::setpgid(0, 0);
  // A crash ends the child with its signal, whatever handlers the host installed (a test
  // framework's, a sanitizer's): the parent reports "crashed with signal N".
  for (const int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGXCPU}) {
    ::signal(sig, SIG_DFL);
  }
  // The child's stdout and stderr go to the capture pipe; stdin reads nothing.
  if (const int null_fd = ::open("/dev/null", O_RDONLY); null_fd >= 0) {
    ::dup2(null_fd, STDIN_FILENO);
    ::close(null_fd);
  }
  ::dup2(capture_fd, STDOUT_FILENO);
  ::dup2(capture_fd, STDERR_FILENO);
  ::close(capture_fd);
  const rlimit no_core{0, 0};
  ::setrlimit(RLIMIT_CORE, &no_core);
  if (options.namespaces) run_namespaced(options, body, wire_fd);
  run_body(options, body, wire_fd, ::getpid(), ::getppid());
}

// This process adopts orphaned descendants of its children, so none can outlive a run. Asked for
// in every process that starts children: the setting is not inherited by a fork (a rank's
// Session forked from a host that had already asked, a test's child).
void become_subreaper() {
  int set = 0;
  if (::prctl(PR_GET_CHILD_SUBREAPER, &set, 0, 0, 0) == 0 && set != 0) return;
  ::prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
}

// Children of a process, from /proc/<pid>/task/*/children.
std::set<pid_t> children_of(const std::string& pid) {
  std::set<pid_t> out;
  std::error_code ec;
  for (const auto& task : std::filesystem::directory_iterator("/proc/" + pid + "/task", ec)) {
    std::ifstream in(task.path() / "children");
    pid_t child = 0;
    while (in >> child) out.insert(child);
  }
  return out;
}

std::set<pid_t> current_children() { return children_of("self"); }

// `root` and every process below it.
std::set<pid_t> process_tree(pid_t root) {
  std::set<pid_t> tree = {root};
  std::vector<pid_t> pending = {root};
  while (!pending.empty()) {
    const pid_t pid = pending.back();
    pending.pop_back();
    for (const pid_t child : children_of(std::to_string(pid))) {
      if (tree.insert(child).second) pending.push_back(child);
    }
  }
  return tree;
}

// Kills every process below `pid` (which is already dead and reaped) and every process that
// re-parented to this one since `before`: walks and kills until a walk finds none, whatever new
// sessions, groups or forks they made. Gives up (and says so) after `patience`.
void kill_leftovers(pid_t group, const std::set<pid_t>& before,
                    std::chrono::milliseconds patience) {
  ::kill(-group, SIGKILL);
  const auto give_up = Clock::now() + patience;
  for (;;) {
    std::set<pid_t> victims;
    for (const pid_t pid : current_children()) {
      if (before.count(pid) > 0) continue;
      const auto tree = process_tree(pid);
      victims.insert(tree.begin(), tree.end());
    }
    if (victims.empty()) return;
    // Deepest first is not needed: a killed parent's children re-parent to this process and
    // are found on the next walk.
    for (const pid_t pid : victims) ::kill(pid, SIGKILL);
    for (const pid_t pid : current_children()) {
      if (before.count(pid) > 0) continue;
      int ignored = 0;
      ::waitpid(pid, &ignored, WNOHANG | __WALL);
    }
    if (Clock::now() >= give_up) {
      spdlog::warn("plugin processes still alive {} ms after the plugin's end; left running",
                   patience.count());
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

// Waits for `pid` until `deadline`; false when it has not ended by then.
// Waits on the pidfd when there is one, else polls.
bool wait_until(pid_t pid, int pidfd, int& status, Clock::time_point deadline) {
  for (;;) {
    const pid_t done = ::waitpid(pid, &status, WNOHANG | __WALL);
    if (done == pid) return true;
    if (done < 0 && errno != EINTR) return false;
    const auto now = Clock::now();
    if (now >= deadline) return false;
    if (pidfd >= 0) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now);
      pollfd pfd{pidfd, POLLIN, 0};
      ::poll(&pfd, 1, static_cast<int>(std::min<long long>(left.count() + 1, 1000)));
    } else {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
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
      if (wire_overflow) {
        return fmt::format("sent more than {} MiB of records and was killed",
                           options.max_wire_bytes >> 20);
      }
      return fmt::format("timed out after {:.1f} s and was killed (its limit: {:.1f} s)",
                         timed_out_ms / 1000.0,
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
  std::uint64_t wire_bytes = 0;
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
    wire_bytes += static_cast<std::uint64_t>(n);
    if (wire_bytes > options.max_wire_bytes) {
      report.wire_overflow = true;
      open = false;
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
    if (now >= deadline || report.wire_overflow) {
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
  // A child that closed its pipes may still run: it has until the deadline like any other.
  int wait_status = 0;
  bool reaped = !timed_out && wait_until(pid, pidfd.get(), wait_status, deadline);
  if (!reaped && !timed_out) timed_out = true;
  if (timed_out) {
    report.timed_out_ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    ::kill(pid, SIGKILL);
    ::kill(-pid, SIGKILL);
  }
  // A killed child is waited for with a deadline too (a process stuck in the kernel must not
  // stall the host); then everything it left is killed.
  if (!reaped && !wait_until(pid, pidfd.get(), wait_status, Clock::now() + kReapPatience)) {
    ::kill(pid, SIGKILL);
    if (!wait_until(pid, pidfd.get(), wait_status, Clock::now() + kReapPatience)) {
      spdlog::warn("a plugin child (pid {}) did not end after SIGKILL; left behind", pid);
      wait_status = SIGKILL;
    }
  }
  kill_leftovers(pid, before, kReapPatience);
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
