#include "loupe/core/prepare/arch_selection.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "json_text.hpp"
#include "loupe/core/model/analysis_dir.hpp"
#include "loupe/core/model/arch_specs.hpp"
#include "loupe/core/util/closest_name.hpp"  // edit_distance: names in any case

namespace loupe::core::prepare {
namespace {

constexpr std::string_view kDefaultPlatform = "MI300X";

std::string stem_of(std::string_view file_name) {
  const std::size_t dot = file_name.rfind('.');
  return std::string(file_name.substr(0, dot));
}

// The checks every analyzer relies on; a file failing them would only fail later, per category.
void check_spec(const Json& spec, const std::string& origin) {
  if (!spec.is_object()) throw std::runtime_error(origin + ": an arch spec must be a JSON object");
  const Json* bw = spec.find("mem_bw_gbps");
  if (bw == nullptr || !bw->is_number() || !(bw->as_double() > 0)) {
    throw std::runtime_error(origin + ": mem_bw_gbps must be a positive number");
  }
  const Json* tflops = spec.find("max_achievable_tflops");
  if (tflops == nullptr || !tflops->is_object() || tflops->as_object().empty()) {
    throw std::runtime_error(origin + ": max_achievable_tflops must be a non-empty object");
  }
  for (const auto& [key, value] : tflops->as_object()) {
    if (!value.is_number() || !(value.as_double() > 0)) {
      throw std::runtime_error(origin + ": max_achievable_tflops." + key +
                               " must be a positive number");
    }
  }
  const Json* link = spec.find("host_link_gbps");
  if (link != nullptr && (!link->is_number() || !(link->as_double() > 0))) {
    throw std::runtime_error(origin + ": host_link_gbps must be a positive number");
  }
  const Json* memory = spec.find("memory_gb");
  if (memory != nullptr && !memory->is_number()) {
    throw std::runtime_error(origin + ": memory_gb must be a number");
  }
}

Json bundled_spec(std::string_view platform) {
  for (const auto& file : embedded_arch_specs()) {
    if (stem_of(file.name) == platform) {
      auto spec = try_parse_json_text(file.text);
      if (!spec)
        throw std::runtime_error("bundled arch spec " + std::string(file.name) + " is invalid");
      return std::move(*spec);
    }
  }
  std::string known;
  const auto names = bundled_platforms();
  for (const auto& name : names) known += (known.empty() ? "" : ", ") + name;
  // No "did you mean": GPU names one edit apart are other GPUs (A100, H100); the list says it.
  throw std::runtime_error("unknown platform '" + std::string(platform) + "' (bundled: " + known +
                           "; use --arch FILE for another)");
}

// What the bundled platforms' deviceProperties show when the name does not say: compute units
// (numSms: SMs or CUs) and memory (the arch spec's memory_gb, read as GiB, which is what
// totalGlobalMem gives: 79.2 for an H100 80GB, 191.5 for an MI300X, 178.4 for a B200).
struct DeviceSignature {
  std::string_view platform;
  int compute_units;
};
constexpr DeviceSignature kSignatures[] = {{"H100", 132},   {"H200", 132},   {"B200", 148},
                                           {"MI300X", 304}, {"MI325X", 304}, {"MI355X", 256}};
constexpr double kMemoryTolerance = 0.08;  // of the spec's memory_gb

std::string describe_device(const DeviceInfo& d) {
  std::string out = d.name.empty() ? "unnamed device" : "\"" + d.name + "\"";
  if (d.compute_units) out += ", " + std::to_string(*d.compute_units) + " compute units";
  if (d.memory_gib) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", *d.memory_gib);
    out += ", " + std::string(buf) + " GiB";
  }
  return out;
}

}  // namespace

std::vector<std::string> bundled_platforms() {
  std::vector<std::string> names;
  for (const auto& file : embedded_arch_specs()) names.push_back(stem_of(file.name));
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<std::string> platform_for_device(std::string_view device_name) {
  // Longest bundled name first, so that e.g. "MI325X" is not taken for a shorter name.
  auto names = bundled_platforms();
  std::sort(names.begin(), names.end(),
            [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
  for (const auto& name : names) {
    if (device_name.find(name) != std::string_view::npos) return name;
  }
  return std::nullopt;
}

std::optional<std::string> bundled_platform_named(std::string_view name) {
  for (const auto& bundled : bundled_platforms()) {
    if (edit_distance(bundled, name) == 0 && bundled.size() == name.size()) return bundled;
  }
  return std::nullopt;
}

std::optional<std::string> platform_for_device(const DeviceInfo& device) {
  if (auto by_name = platform_for_device(device.name)) return by_name;
  if (!device.compute_units || !device.memory_gib) return std::nullopt;
  for (const auto& signature : kSignatures) {
    if (signature.compute_units != *device.compute_units) continue;
    const Json spec = bundled_spec(signature.platform);
    const Json* memory = spec.find("memory_gb");
    if (memory == nullptr || !memory->is_number()) continue;
    const double gb = memory->as_double();
    if (std::abs(*device.memory_gib - gb) <= kMemoryTolerance * gb) {
      return std::string(signature.platform);
    }
  }
  return std::nullopt;
}

std::vector<DeviceInfo> trace_devices(const trace::TraceModel& model) {
  std::vector<DeviceInfo> devices;
  const std::string* props = model.trace_metadata_value("deviceProperties");
  if (props == nullptr) return devices;
  auto doc = try_parse_json_text(*props);
  if (!doc || !doc->is_array()) return devices;
  for (const auto& entry : doc->as_array()) {
    if (!entry.is_object()) continue;
    DeviceInfo d;
    if (const Json* name = entry.find("name"); name != nullptr && name->is_string()) {
      d.name = name->as_string();
    }
    if (const Json* mem = entry.find("totalGlobalMem");
        mem != nullptr && mem->is_number() && mem->as_double() > 0) {
      d.memory_gib = mem->as_double() / (1024.0 * 1024.0 * 1024.0);
    }
    if (const Json* units = entry.find("numSms"); units != nullptr && units->is_number() &&
                                                  units->as_double() > 0 &&
                                                  units->as_double() < 1e6) {
      d.compute_units = static_cast<int>(units->as_double());
    }
    devices.push_back(std::move(d));
  }
  return devices;
}

ArchSelection select_arch(const std::optional<std::filesystem::path>& arch_file,
                          const std::optional<std::string>& platform,
                          const std::vector<std::string>& device_names) {
  std::vector<DeviceInfo> devices;
  for (const auto& name : device_names) devices.push_back(DeviceInfo{name, {}, {}});
  return select_arch_for_devices(arch_file, platform, devices);
}

ArchSelection select_arch_for_devices(const std::optional<std::filesystem::path>& arch_file,
                                      const std::optional<std::string>& platform,
                                      const std::vector<DeviceInfo>& devices) {
  ArchSelection out;
  if (arch_file) {
    const std::string origin = arch_file->string();
    auto spec = try_parse_json_text(read_file(*arch_file));
    if (!spec) throw std::runtime_error(origin + ": not valid JSON");
    check_spec(*spec, origin);
    const Json* name = spec->find("name");
    out.platform = name != nullptr && name->is_string() ? name->as_string()
                                                        : stem_of(arch_file->filename().string());
    out.spec = std::move(*spec);
    out.reason = "arch spec from " + origin;
    return out;
  }
  if (platform) {
    const auto canonical = bundled_platform_named(*platform);
    out.platform = canonical.value_or(*platform);
    out.spec = bundled_spec(out.platform);
    out.reason = "platform " + out.platform + " (--platform)";
    return out;
  }
  for (const auto& device : devices) {
    if (auto p = platform_for_device(device)) {
      out.platform = *p;
      out.spec = bundled_spec(*p);
      out.reason = "platform " + *p + " from the trace's device (" + describe_device(device) + ")";
      out.from_device = true;
      return out;
    }
  }
  out.platform = std::string(kDefaultPlatform);
  out.spec = bundled_spec(kDefaultPlatform);
  out.reason = devices.empty()
                   ? "platform MI300X (the trace names no device; pass --platform or --arch)"
                   : "platform MI300X (no bundled spec for " + describe_device(devices.front()) +
                         "; pass --platform or --arch for correct rooflines)";
  return out;
}

}  // namespace loupe::core::prepare
