// Reading a plugin's descriptor, checking it, and copying it into a PluginInfo, either in a
// sandboxed child (the default) or in this process (--no-isolate debugging).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/util/safe_name.hpp"

namespace loupe::core {

// Limits on what a descriptor may declare (docs/plugin-abi.md, "Limits").
inline constexpr std::size_t kMaxVersionLength = 64;
inline constexpr std::size_t kMaxDescriptionLength = 512;
inline constexpr std::size_t kMaxCategories = 64;
// Longest selector pattern copied from a descriptor (name_pattern.hpp refuses any longer than
// kMaxNamePatternLength with a clear error; beyond this the descriptor itself is refused).
inline constexpr std::size_t kMaxPatternCopy = 4096;

// Checks a descriptor (which may be garbage: call this only in a child unless debugging) and
// copies it into `out`. Returns "" or the reason for rejecting the plugin.
std::string check_descriptor(const loupe_plugin_descriptor* descriptor, PluginInfo& out);

struct ProbeOutcome {
  std::optional<PluginInfo> info;  // set when the plugin is usable
  std::string reason;              // why not, otherwise
};

ProbeOutcome probe_plugin(const std::filesystem::path& path, bool isolate,
                          std::chrono::milliseconds timeout);

}  // namespace loupe::core
