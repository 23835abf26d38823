#include "loupe/core/prepare/arch_selection.hpp"

#include <algorithm>
#include <stdexcept>

#include "json_text.hpp"
#include "loupe/core/analysis_dir.hpp"
#include "loupe/core/arch_specs.hpp"

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
  for (const auto& name : bundled_platforms()) known += (known.empty() ? "" : ", ") + name;
  throw std::runtime_error("unknown platform '" + std::string(platform) + "' (bundled: " + known +
                           "; use --arch FILE for another)");
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

ArchSelection select_arch(const std::optional<std::filesystem::path>& arch_file,
                          const std::optional<std::string>& platform,
                          const std::vector<std::string>& device_names) {
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
    out.platform = *platform;
    out.spec = bundled_spec(*platform);
    out.reason = "platform " + *platform + " (--platform)";
    return out;
  }
  for (const auto& device : device_names) {
    if (auto p = platform_for_device(device)) {
      out.platform = *p;
      out.spec = bundled_spec(*p);
      out.reason = "platform " + *p + " from the trace's device \"" + device + "\"";
      return out;
    }
  }
  out.platform = std::string(kDefaultPlatform);
  out.spec = bundled_spec(kDefaultPlatform);
  out.reason = device_names.empty()
                   ? "platform MI300X (the trace names no device; pass --platform or --arch)"
                   : "platform MI300X (no bundled spec for \"" + device_names.front() +
                         "\"; pass --platform or --arch for correct rooflines)";
  return out;
}

}  // namespace loupe::core::prepare
