// Loading analysis directories into the shared model.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include <filesystem>

#include "cli_runner.hpp"
#include "loupe/core/model/analysis_dir.hpp"
#include "loupe/core/util/json_guards.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::core::load_analysis_directory;

TEST_CASE("the bundled sample loads documents, tables and arch specs", "[model]") {
  const auto dir = loupe::test::bundled_data_dir() / "samples" / "mi300_qwen";
  const auto model = load_analysis_directory(dir);
  CHECK(model.load_errors().empty());

  const auto* manifest = model.document("category_data/category_manifest.json");
  REQUIRE(manifest != nullptr);
  CHECK(std::string((*manifest)["platform"].GetString()) == "MI300X");
  CHECK((*manifest)["gpu_utilization"]["total_time_ms"].GetDouble() == 33.13133349609375);
  REQUIRE(model.property("platform") != nullptr);
  CHECK(*model.property("platform") == "MI300X");
  CHECK(model.document("category_data/fusion_candidates.json") != nullptr);
  CHECK(model.document("metadata/gemm_metadata.json") != nullptr);

  const auto* timeline = model.table("perf_report_csvs/gpu_timeline.csv");
  REQUIRE(timeline != nullptr);
  REQUIRE(timeline->column_count() == 3);
  CHECK(timeline->column_name(1) == "time ms");
  CHECK(timeline->cell(0, 0).text == "computation_time");
  CHECK(timeline->cell(0, 1).number == 29.74316796875);

  const auto* ups = model.table("perf_report_csvs/unified_perf_summary.csv");
  REQUIRE(ups != nullptr);
  CHECK(ups->row_count() == 35);

  const auto* arch = model.document("arch/MI300X.json");
  REQUIRE(arch != nullptr);
  CHECK((*arch)["mem_bw_gbps"].GetInt() == 5300);
  CHECK((*arch)["max_achievable_tflops"]["matrix_bf16"].GetInt() == 708);
  REQUIRE(model.document("arch/MI325X.json") != nullptr);
  REQUIRE(model.document("arch/H100.json") != nullptr);
  CHECK((*model.document("arch/H100.json"))["mem_bw_gbps"].GetInt() == 3350);
  // --compat tracelens sees only the specs TraceLens ships.
  const auto compat = load_analysis_directory(dir, loupe::core::ArchSet::kTraceLens);
  CHECK(compat.document("arch/MI300X.json") != nullptr);
  CHECK(compat.document("arch/MI325X.json") != nullptr);
  CHECK(compat.document("arch/H100.json") == nullptr);
  CHECK(compat.document("arch/MI355X.json") == nullptr);
  // A 1-byte CSV (TraceLens's empty DataFrame) is an empty table, not an error.
  const auto* idle = model.table("category_data/cpu_idle_ops.csv");
  REQUIRE(idle != nullptr);
  CHECK(idle->row_count() == 0);
}

TEST_CASE("a broken input file is recorded with file and reason, the rest still loads", "[model]") {
  loupe::test::TempDir tmp;
  loupe::test::write_text(tmp.path() / "category_data" / "category_manifest.json",
                          R"({"platform": "MI300X", "categories": []})");
  loupe::test::write_text(tmp.path() / "category_data" / "fusion_candidates.json",
                          R"({"candidates": [1, 2,)");
  loupe::test::write_text(tmp.path() / "perf_report_csvs" / "gpu_timeline.csv",
                          "type,time ms\n\"open,1\n");
  const auto model = load_analysis_directory(tmp.path());
  CHECK(model.document("category_data/category_manifest.json") != nullptr);
  CHECK(model.document("category_data/fusion_candidates.json") == nullptr);
  const auto* why = model.property("load_error:category_data/fusion_candidates.json");
  REQUIRE(why != nullptr);
  CHECK_THAT(*why, Catch::Contains("fusion_candidates.json") && Catch::Contains("byte 21"));
  const auto* csv_why = model.property("load_error:perf_report_csvs/gpu_timeline.csv");
  REQUIRE(csv_why != nullptr);
  CHECK_THAT(*csv_why, Catch::Contains("unterminated"));
  CHECK(model.load_errors().size() == 2);
}

TEST_CASE("a JSON file nested past 512 levels is a load error, not a crash", "[model][fuzz]") {
  loupe::test::TempDir tmp;
  loupe::test::write_text(tmp.path() / "category_data" / "category_manifest.json",
                          R"({"platform": "MI300X", "categories": []})");
  loupe::test::write_text(tmp.path() / "category_data" / "fusion_candidates.json",
                          std::string(1000000, '[') + std::string(1000000, ']'));
  const auto model = load_analysis_directory(tmp.path());
  CHECK(model.document("category_data/fusion_candidates.json") == nullptr);
  const auto* why = model.property("load_error:category_data/fusion_candidates.json");
  REQUIRE(why != nullptr);
  CHECK_THAT(*why, Catch::Contains("nest deeper than 512 levels"));
}

TEST_CASE("numbers read as Python reads them, whatever RapidJSON 1.1's own conversion does",
          "[model][fuzz]") {
  // RapidJSON 1.1's full-precision conversion read 0E206 as -7e159 and the zero with 31
  // decimals as 1.2e-240, and overflowed on long significands; Loupe converts the text itself.
  const std::string long_significand =
      "1" + std::string(300, '0') + "." + std::string(300, '0') + "1e-200";
  const auto doc = loupe::core::parse_json_document(
      R"([0E206, -0.00e-999, 0e-400, 1e5, "0E206", 10E206, 0.0000000000000000000000000000000, )" +
      long_significand +
      R"(, 0.1, 18446744073709551615, -9223372036854775808, 18446744073709551616, -0, -0.0, )"
      R"(NaN, -Infinity, 4.9e-324, 1e-400, 123456789012345678901234567890])");
  REQUIRE(doc->IsArray());
  REQUIRE(doc->Size() == 19);
  CHECK((*doc)[0].GetDouble() == 0.0);
  CHECK((*doc)[1].GetDouble() == 0.0);
  CHECK(std::signbit((*doc)[1].GetDouble()));
  CHECK((*doc)[2].GetDouble() == 0.0);
  CHECK((*doc)[3].GetDouble() == 100000.0);
  CHECK(std::string((*doc)[4].GetString()) == "0E206");
  CHECK((*doc)[5].GetDouble() == 1e207);
  CHECK((*doc)[6].GetDouble() == 0.0);
  CHECK((*doc)[7].GetDouble() == 1e100);
  CHECK((*doc)[8].GetDouble() == 0.1);
  CHECK((*doc)[9].IsUint64());
  CHECK((*doc)[9].GetUint64() == 18446744073709551615ULL);
  CHECK((*doc)[10].IsInt64());
  CHECK((*doc)[10].GetInt64() == std::numeric_limits<std::int64_t>::min());
  CHECK((*doc)[11].IsDouble());
  CHECK((*doc)[11].GetDouble() == 18446744073709551616.0);
  CHECK((*doc)[12].IsInt());
  CHECK((*doc)[12].GetInt() == 0);
  CHECK(std::signbit((*doc)[13].GetDouble()));
  CHECK(std::isnan((*doc)[14].GetDouble()));
  CHECK((*doc)[15].GetDouble() == -std::numeric_limits<double>::infinity());
  CHECK((*doc)[16].GetDouble() == 4.9e-324);
  CHECK((*doc)[17].GetDouble() == 0.0);
  CHECK((*doc)[18].GetDouble() == 1.2345678901234568e29);
  // Malformed text stays malformed, and a word glued to a number is named.
  CHECK_THROWS(loupe::core::parse_json_document("[-0E062e-66]"));
  CHECK_THROWS(loupe::core::parse_json_document("[0.0000000000000000000000000000000000.0001]"));
  CHECK_THROWS_WITH(loupe::core::parse_json_document("[NaNE50]"),
                    Catch::Contains("invalid number 'NaNE50'"));
  // A positive exponent or an integer part past the double range is refused (Python would read
  // infinity or a big int; no JSON writer produces the first, Python writes Infinity).
  CHECK_THROWS_WITH(loupe::core::parse_json_document("[1e999]"), Catch::Contains("too big"));
  CHECK_THROWS_WITH(loupe::core::parse_json_document("[1" + std::string(400, '0') + "]"),
                    Catch::Contains("too big"));
}

TEST_CASE("a missing or non-directory input is an InputError", "[model]") {
  loupe::test::TempDir tmp;
  CHECK_THROWS_AS(load_analysis_directory(tmp.path() / "nope"), loupe::core::InputError);
  loupe::test::write_text(tmp.path() / "file", "x");
  CHECK_THROWS_AS(load_analysis_directory(tmp.path() / "file"), loupe::core::InputError);
}

TEST_CASE("every reference directory of the pack loads without errors", "[model][shared][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  size_t dirs = 0;
  for (const auto& entry : fs::directory_iterator(shared / "data" / "reference")) {
    if (!entry.is_directory()) continue;
    ++dirs;
    INFO(entry.path().string());
    const auto model = load_analysis_directory(entry.path());
    CHECK(model.load_errors().empty());
    const bool comparative = fs::exists(entry.path() / "perf_report_trace1_csvs");
    const auto* timeline = model.table(comparative ? "perf_report_trace1_csvs/gpu_timeline.csv"
                                                   : "perf_report_csvs/gpu_timeline.csv");
    REQUIRE(timeline != nullptr);
    CHECK(timeline->row_count() >= 5);
  }
  CHECK(dirs == 42);  // 39 standalone runs and 3 comparative pairs
}
