// Which platform's peaks an analysis uses: --arch FILE, --platform NAME, or the trace's
// deviceProperties (name, else compute units and memory), else MI300X (what TraceLens's
// pipeline always used). Each trace of a comparative run is resolved on its own (README.md).
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare {

struct ArchSelection {
  std::string platform;      // e.g. "MI300X"; the `platform` of the manifest and metadata
  Json spec;                 // {name, mem_bw_gbps, memory_gb, max_achievable_tflops, ...}
  std::string reason;        // one line for the log: how it was chosen
  bool from_device = false;  // chosen from the trace's deviceProperties
};

// One entry of a trace's deviceProperties: what identifies the GPU it was recorded on.
struct DeviceInfo {
  std::string name;                  // "NVIDIA H100 80GB HBM3"; may be empty
  std::optional<double> memory_gib;  // totalGlobalMem / 2^30
  std::optional<int> compute_units;  // numSms: SMs (NVIDIA) or CUs (AMD)
};

// The trace's deviceProperties in file order (empty when it has none).
std::vector<DeviceInfo> trace_devices(const trace::TraceModel& model);

// Bundled platform names (core/arch/*.json), sorted.
std::vector<std::string> bundled_platforms();

// The bundled platform named `name` in any case ("h100" -> "H100"); nullopt when none is.
std::optional<std::string> bundled_platform_named(std::string_view name);

// The bundled platform a deviceProperties name denotes ("AMD Instinct MI300X VF" -> MI300X,
// "NVIDIA H100 80GB HBM3" -> H100); nullopt when none matches.
std::optional<std::string> platform_for_device(std::string_view device_name);
// The same from the whole entry: the name first, else the compute units with the memory
// (e.g. 304 CUs and 192 GiB -> MI300X, 256 GiB -> MI325X; 132 SMs and 80 GiB -> H100).
std::optional<std::string> platform_for_device(const DeviceInfo& device);

// Resolution order: `arch_file` (its "name" key, else the file stem, is the platform),
// `platform` (a bundled name, any case), the first device that maps to a bundled platform,
// MI300X. Throws std::runtime_error naming the file or platform when one cannot be used.
ArchSelection select_arch_for_devices(const std::optional<std::filesystem::path>& arch_file,
                                      const std::optional<std::string>& platform,
                                      const std::vector<DeviceInfo>& devices);
// The same with device names only.
ArchSelection select_arch(const std::optional<std::filesystem::path>& arch_file,
                          const std::optional<std::string>& platform,
                          const std::vector<std::string>& device_names);

}  // namespace loupe::core::prepare
