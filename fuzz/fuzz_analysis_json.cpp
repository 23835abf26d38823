// How the analysis-directory loader parses every JSON file (Python semantics: NaN, full
// precision), and how the run planner reads a manifest.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string_view>

#include "loupe/core/model/category_manifest.hpp"
#include "loupe/core/model/model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    auto doc = loupe::core::parse_json_document(
        std::string_view(reinterpret_cast<const char*>(data), size));
    loupe::core::Model model;
    model.set_document("category_data/category_manifest.json", std::move(doc));
    (void)loupe::core::manifest_categories(model);
  } catch (const std::exception&) {
    // Invalid JSON or a manifest of the wrong shape is a named error, not a crash.
  }
  return 0;
}
