// The renderer on arbitrary findings JSON: it renders or refuses with a RenderError.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "loupe/core/render/renderer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    (void)loupe::core::render_findings_json(
        std::string_view(reinterpret_cast<const char*>(data), size));
  } catch (const loupe::core::RenderError&) {
  }
  return 0;
}
