// Shared helpers of the multi_kernel_data producer tests: load a trace and produce the data
// file and gpu_utilization the way `loupe analyze` does in compat mode.
#pragma once

#include <filesystem>
#include <string>

#include "loupe/json_value.hpp"

namespace loupe::test::mk {

struct Produced {
  std::string data_text;      // multi_kernel_data.json
  std::string utilization;    // gpu_utilization as json.dumps(indent=2) at top level
  bool has_category = false;  // Step 5 rule
  loupe::Json data;
};

Produced produce(const std::filesystem::path& trace);

// The `gpu_utilization` member of a manifest file, re-dumped with indent=2; "" when absent.
std::string manifest_utilization(const std::filesystem::path& manifest);
// Whether the manifest lists a `multi_kernel` category.
bool manifest_has_multi_kernel(const std::filesystem::path& manifest);

std::string read_file(const std::filesystem::path& path);

}  // namespace loupe::test::mk
