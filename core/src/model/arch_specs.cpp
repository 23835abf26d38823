#include "loupe/core/model/arch_specs.hpp"

#include <string>

namespace loupe::core {

void install_arch_specs(Model& model, ArchSet set) {
  for (const auto& file : embedded_arch_specs()) {
    const bool tracelens = file.name == "MI300X.json" || file.name == "MI325X.json";
    if (set == ArchSet::kTraceLens && !tracelens) continue;
    model.set_document("arch/" + std::string(file.name), parse_json_document(file.text));
  }
}

}  // namespace loupe::core
