#include "conv_test_support.hpp"

namespace fs = std::filesystem;

namespace conv_test {

void make_analysis_dir(const fs::path& from, const fs::path& to) {
  for (const char* sub : {"category_data", "metadata"}) {
    fs::create_directories(to / sub);
    if (fs::exists(from / sub)) loupe::test::copy_tree(from / sub, to / sub);
  }
  fs::remove(to / "category_data" / "conv_fwd_metrics.json");
  loupe::test::write_text(to / "category_data" / "category_manifest.json",
                          "{\"categories\": [{\"name\": \"conv_fwd\"}]}");
}

}  // namespace conv_test
