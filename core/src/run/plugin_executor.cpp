#include "loupe/core/plugin_executor.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstring>
#include <optional>

#include <fmt/format.h>

namespace loupe::core {

namespace {

using Clock = std::chrono::steady_clock;

double elapsed_ms(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

loupe_status call_analyze(const Model& model, const ExecutionRequest& request,
                          RunChannel& channel) {
  loupe_analyze_request r{};
  r.struct_size = sizeof(r);
  r.host = &host_services();
  r.run = channel.handle();
  r.model = to_handle(model);
  r.category = request.category.c_str();
  r.scope = request.scope;
  r.compat = request.compat;
  r.workload = request.workload;
  return request.plugin->descriptor->analyze(&r);
}

// ---- child -> parent wire format: records of (tag byte, u64 length, bytes), ending with 'Z'.
void append_record(std::string& wire, char tag, std::string_view bytes) {
  wire.push_back(tag);
  const std::uint64_t size = bytes.size();
  wire.append(reinterpret_cast<const char*>(&size), sizeof(size));
  wire.append(bytes);
}

std::string encode(loupe_status status, const RunOutput& out) {
  std::string wire;
  append_record(wire, 'S', std::to_string(status));
  if (out.metrics_json) append_record(wire, 'M', *out.metrics_json);
  if (out.findings_json) append_record(wire, 'F', *out.findings_json);
  for (const auto& e : out.errors) append_record(wire, 'E', e);
  append_record(wire, 'Z', "");
  return wire;
}

// Decodes the wire; returns false when it is truncated or malformed.
bool decode(std::string_view wire, loupe_status& status, RunOutput& out) {
  bool ended = false;
  bool has_status = false;
  while (!wire.empty()) {
    if (ended || wire.size() < 1 + sizeof(std::uint64_t)) return false;
    const char tag = wire[0];
    std::uint64_t size = 0;
    std::memcpy(&size, wire.data() + 1, sizeof(size));
    wire.remove_prefix(1 + sizeof(size));
    if (size > wire.size()) return false;
    const std::string payload(wire.substr(0, static_cast<size_t>(size)));
    wire.remove_prefix(static_cast<size_t>(size));
    switch (tag) {
      case 'S':
        status = static_cast<loupe_status>(std::stol(payload));
        has_status = true;
        break;
      case 'M':
        out.metrics_json = payload;
        break;
      case 'F':
        out.findings_json = payload;
        break;
      case 'E':
        out.errors.push_back(payload);
        break;
      case 'Z':
        ended = true;
        break;
      default:
        return false;
    }
  }
  return ended && has_status;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

[[noreturn]] void run_child(const Model& model, const ExecutionRequest& request, int write_fd) {
  RunChannel channel(request.plugin->name);
  const loupe_status status = call_analyze(model, request, channel);
  const bool ok = write_all(write_fd, encode(status, channel.output()));
  ::close(write_fd);
  ::_exit(ok ? 0 : 3);
}

std::string describe_wait_status(int wait_status) {
  if (WIFSIGNALED(wait_status)) {
    const int sig = WTERMSIG(wait_status);
    const char* name = ::strsignal(sig);
    return "crashed with signal " + std::to_string(sig) + " (" + (name ? name : "?") + ")";
  }
  if (WIFEXITED(wait_status) && WEXITSTATUS(wait_status) != 0) {
    return "exited with code " + std::to_string(WEXITSTATUS(wait_status));
  }
  return {};
}

class Pipe {
 public:
  Pipe() {
    if (::pipe(fds_) != 0) fds_[0] = fds_[1] = -1;
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  ~Pipe() {
    close_read();
    close_write();
  }
  bool ok() const { return fds_[0] >= 0; }
  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void close_read() {
    if (fds_[0] >= 0) ::close(fds_[0]);
    fds_[0] = -1;
  }
  void close_write() {
    if (fds_[1] >= 0) ::close(fds_[1]);
    fds_[1] = -1;
  }

 private:
  int fds_[2] = {-1, -1};
};

}  // namespace

ExecutionResult execute_in_process(const Model& model, const ExecutionRequest& request) {
  const auto start = Clock::now();
  ExecutionResult result;
  RunChannel channel(request.plugin->name);
  result.status = call_analyze(model, request, channel);
  result.output = std::move(channel.output());
  result.wall_ms = elapsed_ms(start);
  return result;
}

ExecutionResult execute_isolated(const Model& model, const ExecutionRequest& request,
                                 std::chrono::milliseconds timeout) {
  const auto start = Clock::now();
  ExecutionResult result;
  Pipe pipe;
  if (!pipe.ok()) {
    result.failure = std::string("cannot create a pipe: ") + std::strerror(errno);
    return result;
  }
  std::fflush(nullptr);  // do not duplicate buffered output into the child
  const pid_t pid = ::fork();
  if (pid < 0) {
    result.failure = std::string("cannot fork: ") + std::strerror(errno);
    return result;
  }
  if (pid == 0) {
    pipe.close_read();
    run_child(model, request, pipe.write_fd());
  }
  pipe.close_write();

  std::string wire;
  bool timed_out = false;
  const auto deadline = start + timeout;
  char buffer[65536];
  while (true) {
    const auto remaining =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (remaining <= 0) {
      timed_out = true;
      break;
    }
    pollfd pfd{pipe.read_fd(), POLLIN, 0};
    const int ready = ::poll(&pfd, 1, static_cast<int>(std::min<long long>(remaining, 1000)));
    if (ready < 0 && errno != EINTR) break;
    if (ready <= 0) continue;
    const ssize_t n = ::read(pipe.read_fd(), buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // EOF: the child closed its end (finished or died)
    wire.append(buffer, static_cast<size_t>(n));
  }
  if (timed_out) ::kill(pid, SIGKILL);
  int wait_status = 0;
  while (::waitpid(pid, &wait_status, 0) < 0 && errno == EINTR) {
  }
  result.wall_ms = elapsed_ms(start);

  if (timed_out) {
    result.failure = fmt::format("timed out after {:.1f} s and was killed",
                                 static_cast<double>(timeout.count()) / 1000.0);
    return result;
  }
  if (const std::string why = describe_wait_status(wait_status); !why.empty()) {
    result.failure = why;
    return result;
  }
  if (!decode(wire, result.status, result.output)) {
    result.output = RunOutput{};
    result.failure = "ended without handing back complete output";
  }
  return result;
}

}  // namespace loupe::core
