// The findings validator on arbitrary markdown, for each tier and mode (no metrics file beside
// it: the path points nowhere).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "loupe/core/validate/validator.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace loupe::core;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const std::filesystem::path path = "/nonexistent/loupe-fuzz/system_findings/x_findings.md";
  for (const char* tier : {"compute", "system", "fusion"}) {
    for (const auto mode : {ValidationMode::Default, ValidationMode::TraceLens}) {
      (void)validate_findings_text(text, path, tier, Scope::Standalone, mode);
    }
  }
  return 0;
}
