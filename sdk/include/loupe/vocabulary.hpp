// The words a plugin and the host share, as C++ enums tied to the C ABI's constants
// (loupe/abi.h): tier, scope, compatibility mode, workload and log level. Headers that need
// them (plugin.hpp, findings.hpp) include this one, so there is one definition of each.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "loupe/abi.h"

namespace loupe {

enum class Tier : std::int32_t { System = LOUPE_TIER_SYSTEM, Compute = LOUPE_TIER_COMPUTE };
enum class Scope : std::int32_t {
  Standalone = LOUPE_SCOPE_STANDALONE,
  Comparative = LOUPE_SCOPE_COMPARATIVE
};
enum class Compat : std::int32_t { None = LOUPE_COMPAT_NONE, TraceLens = LOUPE_COMPAT_TRACELENS };
enum class Workload : std::int32_t {
  Unknown = LOUPE_WORKLOAD_UNKNOWN,
  Training = LOUPE_WORKLOAD_TRAINING,
  Inference = LOUPE_WORKLOAD_INFERENCE
};
enum class LogLevel : std::int32_t {
  Debug = LOUPE_LOG_DEBUG,
  Info = LOUPE_LOG_INFO,
  Warn = LOUPE_LOG_WARN,
  Error = LOUPE_LOG_ERROR
};

// The spellings used in files and on the command line ("standalone", "comparative", ...).
constexpr const char* to_string(Scope scope) {
  return scope == Scope::Comparative ? "comparative" : "standalone";
}
constexpr std::optional<Scope> scope_from_string(std::string_view text) {
  if (text == "standalone") return Scope::Standalone;
  if (text == "comparative") return Scope::Comparative;
  return std::nullopt;
}
constexpr const char* to_string(Workload workload) {
  switch (workload) {
    case Workload::Training:
      return "training";
    case Workload::Inference:
      return "inference";
    case Workload::Unknown:
      break;
  }
  return "unknown";
}

}  // namespace loupe
