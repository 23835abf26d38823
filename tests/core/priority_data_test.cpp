// priority_data.json (docs/report.md): the aggregation of every category's metrics must be
// byte-identical to TraceLens's on the bundled fixture and on every run of the reference pack.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "loupe/core/model/model.hpp"
#include "loupe/core/report/priority_data.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::Json;

namespace {

std::string slurp(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Json load(const fs::path& path) {
  return loupe::core::to_owned_json(*loupe::core::parse_json_document(slurp(path)));
}

// The priority document for a folder that holds a manifest and *_metrics.json files (a run's
// category_data/, or the flat fixture).
std::string priority_for(const fs::path& dir) {
  std::vector<loupe::core::MetricsFile> files;
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 13 && name.substr(name.size() - 13) == "_metrics.json") {
      files.push_back({name, load(entry.path())});
    }
  }
  const Json manifest = load(dir / "category_manifest.json");
  return loupe::core::priority_data_text(loupe::core::build_priority_data(manifest, files));
}

}  // namespace

TEST_CASE("priority data: the bundled h100_bert run, byte for byte", "[report]") {
  const fs::path dir = loupe::test::bundled_data_dir() / "report" / "h100_bert";
  const std::string expected = slurp(dir / "priority_data.json");
  REQUIRE(expected.size() > 1000);
  CHECK(priority_for(dir) == expected);
}

TEST_CASE("priority data: findings rank globally, heuristic ones stay out of the rollup",
          "[report]") {
  const Json manifest =
      load(loupe::test::bundled_data_dir() / "report/h100_bert/category_manifest.json");
  Json a = Json::object();
  a["category"] = "gemm";
  a["status"] = "OK";
  Json findings = Json::array();
  Json f1 = Json::object();
  f1["rank"] = 1;
  f1["impact_score"] = 2.5;
  f1["impact_score_low"] = 1;
  f1["impact_score_high"] = 4;
  f1["operation_count"] = 3;
  findings.push_back(f1);
  Json f2 = Json::object();
  f2["rank"] = 2;
  f2["impact_score"] = 9.0;
  f2["estimate_method"] = "heuristic";
  findings.push_back(f2);
  a["category_findings"] = findings;
  const Json out = loupe::core::build_priority_data(manifest, {{"gemm_metrics.json", a}});
  REQUIRE(out.find("findings")->size() == 2);
  // The heuristic finding ranks first globally but adds nothing to the gemm rollup.
  CHECK(out.find("findings")->as_array()[0].find("impact_score")->as_double() == 9.0);
  CHECK(out.find("findings")->as_array()[0].find("global_rank")->as_int() == 1);
  CHECK(out.find("findings")->as_array()[1].find("category_rank")->as_int() == 1);
  const auto& rec = out.find("recommendations")->as_array().at(0);
  CHECK(rec.find("impact_score")->as_double() == 2.5);
  CHECK(rec.find("operation_count")->as_int() == 3);
  // A metrics file of the wrong shape gives TraceLens's empty document.
  Json broken = Json::object();
  broken["category_findings"] = "not a list";
  const Json empty = loupe::core::build_priority_data(manifest, {{"x_metrics.json", broken}});
  CHECK(empty.find("baseline_ms")->as_int() == 0);
  CHECK(empty.find("findings")->size() == 0);
}

TEST_CASE("priority data: every run of the reference pack, byte for byte", "[report][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  int compared = 0;
  for (const char* root : {"data/reference", "data/reference-inference"}) {
    for (const auto& run : fs::directory_iterator(shared / root)) {
      const fs::path expected = run.path() / "priority_data.json";
      if (!fs::exists(expected)) continue;
      INFO(run.path().string());
      CHECK(priority_for(run.path() / "category_data") == slurp(expected));
      ++compared;
    }
  }
  CHECK(compared == 45);  // 41 training-style runs + 4 inference-server runs
}
