// Platform peak specs bundled with the host (core/arch/*.json, compiled in).
#pragma once

#include <string_view>
#include <vector>

#include "loupe/core/model.hpp"

namespace loupe::core {

struct EmbeddedFile {
  std::string_view name;  // e.g. "MI300X.json"
  std::string_view text;
};

const std::vector<EmbeddedFile>& embedded_arch_specs();

// Adds every bundled spec to the model as document "arch/<name>.json".
void install_arch_specs(Model& model);

}  // namespace loupe::core
