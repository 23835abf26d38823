// Platform peak specs bundled with the host (core/arch/*.json, compiled in).
#pragma once

#include <string_view>
#include <vector>

#include "loupe/core/model/model.hpp"

namespace loupe::core {

struct EmbeddedFile {
  std::string_view name;  // e.g. "MI300X.json"
  std::string_view text;
};

const std::vector<EmbeddedFile>& embedded_arch_specs();

// Which bundled specs a run sees: all of them, or only those TraceLens ships (MI300X,
// MI325X), so that `--compat tracelens` fails where TraceLens fails ("No arch config found").
enum class ArchSet { kAll, kTraceLens };

// Adds the bundled specs to the model as documents "arch/<name>.json".
void install_arch_specs(Model& model, ArchSet set = ArchSet::kAll);

}  // namespace loupe::core
