// Running a piece of host code that calls into a plugin in a forked child, so that nothing the
// plugin does (crash, hang, abort, exit, runaway memory, stray output, grandchildren) reaches
// the host. The child gets its own process group, new namespaces where the kernel allows them
// (namespaces.hpp), a sandbox (sandbox.hpp), a pipe for wire records (child_wire.hpp) and a
// second pipe that captures its stdout and stderr; every other descriptor is closed.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "child_wire.hpp"
#include "sandbox.hpp"

namespace loupe::core::isolation {

// What the host keeps of a child's stdout and stderr.
inline constexpr std::size_t kMaxCapturedOutput = 64 * 1024;

struct ChildOptions {
  std::chrono::milliseconds timeout{std::chrono::seconds(10)};
  SandboxLimits limits;
  std::uint64_t max_wire_bytes = std::uint64_t{1} << 20;  // more through the pipe: killed
  bool namespaces = protections().namespaces;  // run the child in new namespaces (namespaces.hpp)
};

enum class ChildEnd {
  Finished,       // exit code 0
  Exited,         // another exit code
  Crashed,        // killed by a signal it raised or received
  TimedOut,       // still running at the deadline: its process group was killed
  CpuLimit,       // killed by SIGXCPU at its CPU-time limit
  CouldNotStart,  // no pipe or no fork
};

struct ChildReport {
  ChildEnd end = ChildEnd::CouldNotStart;
  int code = 0;                     // exit code, or signal number
  std::vector<WireRecord> records;  // every record but Log, in order
  bool wire_complete = false;       // an End record arrived and nothing malformed
  bool out_of_memory = false;       // an OutOfMemory record arrived
  bool wire_overflow = false;       // it sent more than max_wire_bytes and was killed
  std::string captured_output;      // what the child wrote to stdout/stderr (bounded)
  std::string start_error;          // for CouldNotStart
  double wall_ms = 0.0;
  double timed_out_ms = 0.0;  // for TimedOut: when the host gave up on it

  // "" when the child finished with a complete wire; else what went wrong, as a phrase
  // ("crashed with signal 11 (Segmentation fault)", "timed out after 2.0 s and was killed").
  std::string failure(const ChildOptions& options) const;
};

// Runs body(wire_fd) in a forked child. Log records are handed to on_log as they arrive; the
// rest are collected. After the child ends (or is killed at the deadline, and waited for with a
// deadline), every process it left behind is killed: its PID namespace when it has one, else by
// walking its process tree (whatever groups or sessions the processes moved to) until none is
// left.
ChildReport run_in_child(const ChildOptions& options, const std::function<void(int)>& body,
                         const std::function<void(const WireRecord&)>& on_log);

// Writes captured child output to the log, one line at a time, with control characters and
// invalid UTF-8 escaped, prefixed by `who`.
void log_captured_output(const std::string& who, const std::string& captured);

}  // namespace loupe::core::isolation
