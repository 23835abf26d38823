// Running a piece of host code that calls into a plugin in a forked child, so that nothing the
// plugin does (crash, hang, abort, exit, runaway memory, stray output, grandchildren) reaches
// the host. The child gets its own process group, a sandbox (sandbox.hpp), a pipe for wire
// records (child_wire.hpp) and a second pipe that captures its stdout and stderr.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

#include "child_wire.hpp"
#include "sandbox.hpp"

namespace loupe::core::isolation {

struct ChildOptions {
  std::chrono::milliseconds timeout{std::chrono::seconds(10)};
  SandboxLimits limits;
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
  std::string captured_output;      // what the child wrote to stdout/stderr (bounded)
  std::string start_error;          // for CouldNotStart
  double wall_ms = 0.0;

  // "" when the child finished with a complete wire; else what went wrong, as a phrase
  // ("crashed with signal 11 (Segmentation fault)", "timed out after 2.0 s and was killed").
  std::string failure(const ChildOptions& options) const;
};

// Runs body(wire_fd) in a forked child. Log records are handed to on_log as they arrive; the
// rest are collected. After the child ends (or is killed at the deadline), every process it left
// behind (its process group, and descendants that re-parented to this process) is killed.
ChildReport run_in_child(const ChildOptions& options, const std::function<void(int)>& body,
                         const std::function<void(const WireRecord&)>& on_log);

// Writes captured child output to the log, one line at a time, with control characters and
// invalid UTF-8 escaped, prefixed by `who`.
void log_captured_output(const std::string& who, const std::string& captured);

}  // namespace loupe::core::isolation
