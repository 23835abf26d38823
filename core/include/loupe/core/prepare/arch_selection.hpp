// Which platform's peaks an analysis uses: --arch FILE, --platform NAME, or the trace's
// deviceProperties name, else MI300X (what TraceLens's pipeline always used).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

struct ArchSelection {
  std::string platform;  // e.g. "MI300X"; the `platform` of the manifest and metadata
  Json spec;             // {name, mem_bw_gbps, memory_gb, max_achievable_tflops, ...}
  std::string reason;    // one line for the log: how it was chosen
};

// Bundled platform names (core/arch/*.json), sorted.
std::vector<std::string> bundled_platforms();

// The bundled platform a deviceProperties name denotes ("AMD Instinct MI300X VF" -> MI300X,
// "NVIDIA H100 80GB HBM3" -> H100); nullopt when none matches.
std::optional<std::string> platform_for_device(std::string_view device_name);

// Resolution order: `arch_file` (its "name" key, else the file stem, is the platform),
// `platform` (must be bundled), the first device name that maps to a bundled platform,
// MI300X. Throws std::runtime_error naming the file or platform when one cannot be used.
ArchSelection select_arch(const std::optional<std::filesystem::path>& arch_file,
                          const std::optional<std::string>& platform,
                          const std::vector<std::string>& device_names);

}  // namespace loupe::core::prepare
