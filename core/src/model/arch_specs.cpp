#include "loupe/core/arch_specs.hpp"

#include <string>

namespace loupe::core {

void install_arch_specs(Model& model) {
  for (const auto& file : embedded_arch_specs()) {
    model.set_document("arch/" + std::string(file.name), parse_json_document(file.text));
  }
}

}  // namespace loupe::core
