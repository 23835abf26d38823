// TC01-TC13 (spec docs/contracts/multi_kernel.md §8.2): multi_kernel_data.json byte-identical to TraceLens's,
// gpu_utilization equal to the manifest's, category created exactly when TraceLens created it.
#include <catch2/catch.hpp>

#include "mk_test_support.hpp"
#include "test_paths.hpp"

namespace {

const char* const kCases[] = {
    "tc01_comm_partial",       "tc02_comm_hidden",
    "tc03_comm_small",         "tc04_d2h_count11",
    "tc05_d2h_count10",        "tc06_h2d_pct_and_d2d",
    "tc07_memset_only",        "tc08_unlinked",
    "tc09_rocm_legacy",        "tc10_custom_ar_memcpy_partial",
    "tc11_direction_variants", "tc12_boundaries",
    "tc13_zero_dur_span",
};

}  // namespace

TEST_CASE("TC01-TC13: multi_kernel_data.json and gpu_utilization equal TraceLens's") {
  for (const char* name : kCases) {
    SECTION(name) {
      const auto dir = loupe::test::bundled_data_dir() / "prepare" / "multi_kernel" / name;
      const auto produced = loupe::test::mk::produce(dir / "trace.json.gz");
      CHECK(produced.data_text == loupe::test::mk::read_file(dir / "multi_kernel_data.json"));
      CHECK(produced.utilization ==
            loupe::test::mk::manifest_utilization(dir / "category_manifest.json"));
      CHECK(produced.has_category ==
            loupe::test::mk::manifest_has_multi_kernel(dir / "category_manifest.json"));
    }
  }
}
