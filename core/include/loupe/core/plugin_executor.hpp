// Running one plugin on one category: in-process, or in a forked child that shares the loaded
// model copy-on-write and cannot take the host down with it.
#pragma once

#include <chrono>
#include <string>

#include "loupe/core/host_services.hpp"
#include "loupe/core/model.hpp"
#include "loupe/core/plugin_registry.hpp"

namespace loupe::core {

struct ExecutionRequest {
  const LoadedPlugin* plugin = nullptr;
  std::string category;
  int32_t scope = LOUPE_SCOPE_STANDALONE;
  int32_t compat = LOUPE_COMPAT_NONE;
  int32_t workload = LOUPE_WORKLOAD_UNKNOWN;
};

struct ExecutionResult {
  loupe_status status = LOUPE_ERROR;  // what analyze() returned
  RunOutput output;                   // what it emitted
  std::string failure;                // crash, timeout, exit or protocol problem; empty if none
  double wall_ms = 0.0;
};

// Calls analyze() in this process. A crash takes the host down: for debugging only.
ExecutionResult execute_in_process(const Model& model, const ExecutionRequest& request);

// Calls analyze() in a forked child with a deadline. Crashes, aborts, hangs (killed after the
// timeout), unexpected exits and truncated output become `failure`.
ExecutionResult execute_isolated(const Model& model, const ExecutionRequest& request,
                                 std::chrono::milliseconds timeout);

}  // namespace loupe::core
