// Running one plugin on one category: in a sandboxed child that shares the loaded model
// copy-on-write and cannot take the host down with it, or in process for debugging.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "loupe/core/abi/host_services.hpp"
#include "loupe/core/model/model.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

struct ExecutionRequest {
  const PluginInfo* plugin = nullptr;
  std::string category;
  int32_t scope = LOUPE_SCOPE_STANDALONE;
  int32_t compat = LOUPE_COMPAT_NONE;
  int32_t workload = LOUPE_WORKLOAD_UNKNOWN;
};

struct IsolationLimits {
  std::chrono::milliseconds timeout{std::chrono::minutes(5)};
  std::uint64_t memory_mb = 0;  // address space a child may add to what it inherits; 0: none
  // Directories a child must leave alone; compared before and after each run where the kernel
  // has no Landlock to forbid the writes (isolation/directory_snapshot.hpp).
  std::vector<std::filesystem::path> protected_dirs;
};

struct ExecutionResult {
  loupe_status status = LOUPE_ERROR;  // what analyze() returned
  RunOutput output;                   // what it emitted
  std::string failure;                // crash, timeout, limit, tampering or protocol problem
  std::string truncated;              // what of its output the host dropped or cut, or ""
  double wall_ms = 0.0;
};

// The protections a plugin child runs under on this machine (docs/reliability.md, "Kernel
// matrix"), for loupe_run.json and `loupe plugins`.
struct SandboxProtections {
  bool namespaces = false;  // new user, PID, IPC and network namespaces
  int landlock_abi = 0;     // 0: none
  bool seccomp = false;
  bool writes_only_detected = false;  // changes are found by comparing directories afterwards
  std::string summary;                // one line for people
};
SandboxProtections sandbox_protections();
// The record loupe_run.json and `loupe plugins --json` write: namespaces, landlock_abi, seccomp,
// capabilities, writes_only_detected.
Json sandbox_protections_json(const SandboxProtections& sandbox);

// Calls analyze() in this process. A crash takes the host down: for debugging only.
ExecutionResult execute_in_process(const Model& model, const ExecutionRequest& request);

// Opens the plugin and calls analyze() in a forked, sandboxed child with a deadline. Crashes,
// aborts, hangs (killed after the timeout), limits hit, unexpected exits, files changed and
// truncated output become `failure`.
ExecutionResult execute_isolated(const Model& model, const ExecutionRequest& request,
                                 const IsolationLimits& limits);

}  // namespace loupe::core
