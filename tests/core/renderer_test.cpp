// The common renderer: layout golden files for each style and scope, and every rendered file
// passes the validator (TraceLens mode and default mode).
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <functional>

#include "cli_runner.hpp"
#include "loupe/core/render/renderer.hpp"
#include "loupe/core/validate/validator.hpp"
#include "loupe/findings.hpp"
#include "loupe/findings_json.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace fd = loupe::findings;
using loupe::Json;
using loupe::core::Scope;
using loupe::core::ValidationMode;

namespace {

std::string render(const fd::Document& doc) {
  return loupe::core::render_findings_json(loupe::dump_python_json(fd::to_json(doc)));
}

fd::Document system_doc() {
  fd::Document doc;
  doc.style = fd::Style::System;
  doc.category = "multi_kernel";
  doc.title = "Multi-Kernel Issue Analysis Findings";
  doc.sections.push_back({"Summary",
                          {fd::table({{"Metric", "Value", "Flagged"},
                                      {{"Exposed Communication", "10.00% of total", "true"}}})}});
  fd::Recommendation card;
  card.title = "Communication blocks compute";
  card.insight = "10.00% of GPU time is exposed collective communication.";
  card.action = "Increase the gradient bucket size so collectives overlap with backward compute.";
  doc.recommendations.push_back(card);
  fd::Detail d;
  d.rank = 1;
  d.title = card.title;
  d.identification = "Exposed communication is above 5% (source: `multi_kernel_metrics.json`).";
  d.data.push_back(fd::table({{"Metric", "Value", "Flagged"}, {{"Exposed", "10.0 ms", "true"}}}));
  d.reasoning = "Collectives run while no compute is available to hide them.";
  d.resolution = "Larger buckets start communication earlier.";
  doc.details.push_back(d);
  return doc;
}

fd::Document compute_doc(bool comparative) {
  fd::Document doc;
  doc.style = fd::Style::Compute;
  doc.category = "conv_fwd";
  doc.scope = comparative ? loupe::Scope::Comparative : loupe::Scope::Standalone;
  doc.title = "conv_fwd Analysis";
  fd::Recommendation card;
  card.title = "Low-efficiency convolutions";
  card.library = "MIOpen";
  card.insight = "aten::convolution reaches 2.69% of peak.";
  card.action = "Try a channels-last layout.";
  card.impact = fd::ImpactScores{Json(4.3), Json(4.87), Json(5.0), "impact_score: 4.87"};
  card.warning = "No performance model for this op; impact is derived from its E2E GPU-time share.";
  doc.recommendations.push_back(card);
  fd::Detail d;
  d.rank = 1;
  d.title = card.title;
  d.identification = "Efficiency below 30%.";
  const std::vector<std::string> standalone_header = {
      "Operation", "Args",  "Kernel Path", "Kernel Name", "Time (ms)",
      "%E2E",      "Count", "FLOPS/Byte",  "Efficiency",  "Bound"};
  const std::vector<std::string> comparative_header = {
      "Operation",         "Args (T1)",         "Kernel Path",   "Kernel Name",
      "Trace 1 Time (ms)", "Trace 2 Time (ms)", "Count (T1/T2)", "Difference (ms)",
      "FLOPS/Byte (T1)",   "Bound (T1)"};
  d.data.push_back(fd::table(
      {comparative ? comparative_header : standalone_header,
       {{"aten::convolution", "(1,3,224,224) bf16<br>(64,3,7,7) bf16", "aten::convolution",
         "igemm_fwd", "1.2", "3.4", "1", "12.0", "2.69% of 708 TFLOPS", "compute-bound"}}}));
  d.reasoning = "Small channel counts leave the matrix units idle.";
  d.resolution = "Use a layout the DNN library has fast kernels for.";
  d.estimate = fd::DetailEstimate{
      Json(4.3), Json(5.0), {"Low end impact_score: 4.3", "High end impact_score: 5.0"}};
  doc.details.push_back(d);
  return doc;
}

fd::Document fusion_doc() {
  fd::Document doc;
  doc.style = fd::Style::Fusion;
  doc.category = "kernel_fusion";
  doc.title = "Kernel Fusion Analysis Summary (Experimental)";
  fd::Recommendation card;
  card.title = "Unfused RMSNorm (4.789 ms, 49 instances)";
  card.insight = "`nn.Module: Qwen2RMSNorm_0` launches 8 GPU kernels per instance.";
  card.action = "Replace the 8-kernel sequence with one fused kernel.";
  card.impact = fd::ImpactScores{Json(10.04), Json(11.72), Json(13.39),
                                 "impact_score: 11.72 (perf-model coverage 8/8 kernels)"};
  card.confidence = fd::Confidence{"High", "deterministic name/composition signals"};
  doc.recommendations.push_back(card);
  fd::Detail d;
  d.rank = 1;
  d.title = card.title;
  d.identification = "Module launches multiple unfused kernels.";
  d.data.push_back(fd::table({{"Kernel", "Type", "Duration (us)", "Perf model"},
                              {{"rms_kernel", "Elementwise", "12.3", "yes"}}}));
  d.estimate = fd::DetailEstimate{
      Json(10.04), Json(13.39), {"Low end impact_score: 10.04", "High end impact_score: 13.39"}};
  doc.details.push_back(d);
  doc.trailing_sections.push_back(
      {"Impact Summary",
       {fd::table({{"Pattern", "impact_score"}, {{"Unfused RMSNorm", "11.72"}}})}});
  return doc;
}

// Writes the rendered file (and, for compute, a metrics file with the verbatim cell values)
// into a temp output dir and validates it.
loupe::core::ValidationResult validate(const std::string& markdown, const std::string& style,
                                       const std::string& category, Scope scope,
                                       ValidationMode mode, const loupe::test::TempDir& tmp) {
  const fs::path path = tmp.path() / loupe::core::findings_relative_path(style, category);
  loupe::test::write_text(path, markdown);
  if (style == "compute") {
    loupe::test::write_text(tmp.path() / "category_data" / (category + "_metrics.json"),
                            R"({"category_findings": [{"rank": 1}], "operations": [{"args": )"
                            R"("(1,3,224,224) bf16<br>(64,3,7,7) bf16", "launcher_path": )"
                            R"("aten::convolution", "kernel_name_trunc": "igemm_fwd"}]})");
  }
  return loupe::core::validate_findings_file(path, style, scope, mode);
}

// Set LOUPE_UPDATE_GOLDEN=1 to rewrite the golden files after an intended layout change
// (then review the diff).
void check_golden(const std::string& markdown, const std::string& name) {
  const fs::path golden = loupe::test::bundled_data_dir() / "render" / name;
  INFO("golden file " << golden.string());
  if (const char* update = std::getenv("LOUPE_UPDATE_GOLDEN");
      update != nullptr && *update == '1') {
    loupe::test::write_text(golden, markdown);
  }
  REQUIRE(fs::exists(golden));
  CHECK(markdown == loupe::test::read_text(golden));
}

}  // namespace

TEST_CASE("system findings render to the golden layout and validate", "[render]") {
  const std::string md = render(system_doc());
  check_golden(md, "system_standalone.md");
  loupe::test::TempDir tmp;
  for (auto mode : {ValidationMode::TraceLens, ValidationMode::Default}) {
    const auto r = validate(md, "system", "multi_kernel", Scope::Standalone, mode, tmp);
    CHECK(r.errors == std::vector<std::string>{});
    CHECK(r.passed);
  }
}

TEST_CASE("compute findings render and validate in both scopes", "[render]") {
  for (bool comparative : {false, true}) {
    const std::string md = render(compute_doc(comparative));
    check_golden(md, comparative ? "compute_comparative.md" : "compute_standalone.md");
    loupe::test::TempDir tmp;
    const auto scope = comparative ? Scope::Comparative : Scope::Standalone;
    const auto r = validate(md, "compute", "conv_fwd", scope, ValidationMode::TraceLens, tmp);
    CHECK(r.errors == std::vector<std::string>{});
    // The same file checked with the other scope's schema must fail: the check is real.
    const auto other = comparative ? Scope::Standalone : Scope::Comparative;
    CHECK_FALSE(validate(md, "compute", "conv_fwd", other, ValidationMode::TraceLens, tmp).passed);
  }
}

TEST_CASE("fusion findings carry the confidence icon and validate", "[render]") {
  const std::string md = render(fusion_doc());
  check_golden(md, "fusion_standalone.md");
  CHECK_THAT(md,
             Catch::Contains("### \xF0\x9F\x94\xB4 P1: Unfused RMSNorm (4.789 ms, 49 instances)"));
  CHECK_THAT(md,
             Catch::Contains("<!-- impact-begin kind=p_item low=10.04 mid=11.72 high=13.39 -->"));
  loupe::test::TempDir tmp;
  const auto r =
      validate(md, "fusion", "kernel_fusion", Scope::Standalone, ValidationMode::TraceLens, tmp);
  CHECK(r.errors == std::vector<std::string>{});
}

TEST_CASE("NO_DATA and ERROR documents render to the honest short form", "[render]") {
  for (auto status : {fd::Status::NoData, fd::Status::Error}) {
    fd::Document doc;
    doc.style = fd::Style::Fusion;
    doc.category = "kernel_fusion";
    doc.status = status;
    doc.title = "Kernel Fusion Analysis Summary (Experimental)";
    doc.message = "fusion_candidates.json lists no candidate";
    const std::string md = render(doc);
    CHECK_THAT(md, Catch::Contains(std::string("**Status**: ") + fd::to_string(status)));
    CHECK_THAT(md, Catch::Contains("fusion_candidates.json lists no candidate"));
    loupe::test::TempDir tmp;
    // Accepted by Loupe's validator; TraceLens rejects every card-less system file (Q-15).
    CHECK(validate(md, "fusion", "kernel_fusion", Scope::Standalone, ValidationMode::Default, tmp)
              .passed);
    CHECK_FALSE(
        validate(md, "fusion", "kernel_fusion", Scope::Standalone, ValidationMode::TraceLens, tmp)
            .passed);
  }
}

TEST_CASE("the renderer refuses documents that would render into invalid files", "[render]") {
  using loupe::core::RenderError;
  auto doc = system_doc();
  doc.details.clear();
  CHECK_THROWS_WITH(render(doc), Catch::Contains("one entry per finding"));

  doc = system_doc();
  doc.details[0].data = {fd::table({{"A", "B"}, {{"x|y", "z"}}})};
  CHECK_THROWS_WITH(render(doc), Catch::Contains("must not contain '|'"));

  doc = system_doc();
  doc.recommendations[0].insight = "two\nlines";
  CHECK_THROWS_WITH(render(doc), Catch::Contains("recommendations[0].insight"));

  doc = system_doc();
  doc.sections[0].blocks.push_back(fd::paragraph("see ## Recommendations below"));
  CHECK_THROWS_WITH(render(doc), Catch::Contains("## Recommendations"));

  doc = system_doc();
  doc.sections[0].blocks.push_back(fd::subheading("Observed P2: too many"));
  CHECK_THROWS_WITH(render(doc), Catch::Contains("P<N>:"));

  auto compute = compute_doc(false);
  compute.recommendations[0].impact->mid = Json();
  CHECK_THROWS_WITH(render(compute), Catch::Contains("mix null and numbers"));

  compute = compute_doc(false);
  compute.details[0].data = {fd::paragraph("no table")};
  CHECK_THROWS_WITH(render(compute), Catch::Contains("operations table"));

  auto fusion = fusion_doc();
  fusion.recommendations[0].confidence.reset();
  CHECK_THROWS_WITH(render(fusion), Catch::Contains("confidence"));

  CHECK_THROWS_AS(loupe::core::render_findings_json("{not json"), RenderError);
  CHECK_THROWS_WITH(loupe::core::render_findings_json(R"({"schema": "other"})"),
                    Catch::Contains("schema"));
}

TEST_CASE("marker numbers keep the metrics' int/float spelling", "[render]") {
  auto doc = compute_doc(false);
  doc.recommendations[0].impact =
      fd::ImpactScores{Json(2), Json(2.0), Json(1e-05), "impact_score: 2.0"};
  const std::string md = render(doc);
  CHECK_THAT(md, Catch::Contains("<!-- impact-begin kind=p_item low=2 mid=2.0 high=1e-05 -->"));
}

TEST_CASE("the SDK's text helpers always produce text the renderer accepts", "[render]") {
  namespace fd = loupe::findings;
  const std::vector<std::string> hostile = {
      "plain",
      "two\nlines\r\n",
      "## Recommendations inside",
      "# heading",
      "### ## # deep",
      "<!<!---- joined marker -->>",
      "<!-<!---->- nested",
      "a | b || c",
      "## Detailed Analysis\n# x\n<!-- c -->",
      "",
  };
  for (const auto& text : hostile) {
    INFO(text);
    const std::string line = fd::inline_text(text);
    CHECK_FALSE(fd::text_problem(line, fd::TextKind::Line).has_value());
    const std::string cell = fd::table_cell(text, 8);
    CHECK_FALSE(fd::text_problem(cell, fd::TextKind::Cell).has_value());
  }
  CHECK(fd::inline_text("## Recommendations now") == "Recommendations now");
  CHECK(fd::table_cell("a|b") == "a/b");
  CHECK(fd::table_cell("\xC3\xA9\xC3\xA9\xC3\xA9", 2) == "\xC3\xA9\xC3\xA9...");
  CHECK(fd::text_problem("ok\n# no", fd::TextKind::Block) == "a line must not start with '#'");
}

TEST_CASE("findings::from_json reads back what to_json wrote", "[render][findings_json]") {
  auto with_ranking = compute_doc(false);
  with_ranking.recommendations[0].evidence = fd::Evidence::Modeled;
  with_ranking.recommendations[0].saving_ms = fd::SavingMs{1.25, 2.5, 3.75};
  with_ranking.recommendations[0].claims.kernels = {7, 9};
  with_ranking.recommendations[0].claims.op_groups = {42};
  std::size_t checked = 0;
  for (const auto& doc : {system_doc(), compute_doc(true), fusion_doc(), with_ranking}) {
    const std::string text = loupe::dump_python_json(fd::to_json(doc));
    const fd::ReadResult read = fd::from_json(fd::to_json(doc));
    INFO(read.error);
    REQUIRE(read.ok());
    CHECK(loupe::dump_python_json(fd::to_json(read.document)) == text);
    // Rendering the typed document and rendering its JSON give the same file.
    CHECK(loupe::core::render_findings(read.document) == render(doc));
    ++checked;
  }
  CHECK(checked == 4);
  const fd::ReadResult read = fd::from_json(fd::to_json(with_ranking));
  REQUIRE(read.document.recommendations.size() == 1);
  const auto& card = read.document.recommendations[0];
  CHECK(card.evidence == fd::Evidence::Modeled);
  REQUIRE(card.saving_ms.has_value());
  CHECK(card.saving_ms->mid == 2.5);
  CHECK(card.claims.kernels == std::vector<std::int64_t>{7, 9});
  CHECK(card.claims.op_groups == std::vector<std::int64_t>{42});
  CHECK(read.document.details[0].estimate->high.as_double() == 5.0);
}

TEST_CASE("findings::from_json names the member that breaks the schema",
          "[render][findings_json]") {
  const auto error_of = [](const std::function<void(Json&)>& edit) {
    Json j = fd::to_json(compute_doc(false));
    edit(j);
    return fd::from_json(j).error;
  };
  CHECK(error_of([](Json&) {}).empty());
  CHECK(error_of([](Json& j) { j["schema"] = "loupe.findings/0"; }) ==
        "schema: expected 'loupe.findings/1'");
  CHECK(error_of([](Json& j) { j["style"] = "pretty"; }) ==
        "style: must be compute, system or fusion");
  CHECK(error_of([](Json& j) { j["recommendations"].as_array()[0]["title"] = 3; }) ==
        "recommendations[0].title: required string is missing");
  CHECK(error_of([](Json& j) { j["recommendations"].as_array()[0]["impact"]["mid"] = "high"; }) ==
        "recommendations[0].impact.mid: impact values must be numbers or null");
  CHECK(error_of([](Json& j) { j["recommendations"].as_array()[0]["impact"]["mid"] = nullptr; }) ==
        "recommendations[0].impact: impact values mix null and numbers");
  CHECK(error_of([](Json& j) { j["details"].as_array()[0]["rank"] = -1; }) ==
        "details[0].rank: must be a non-negative integer");
  CHECK(error_of([](Json& j) { j["details"] = Json::array(); }) ==
        "recommendations: recommendations and details must have one entry per finding (1 vs 0)");
  CHECK(error_of([](Json& j) { j["status"] = "NO_DATA"; }) ==
        "recommendations: status NO_DATA cannot carry recommendations");
  CHECK(error_of([](Json& j) {
          j["details"].as_array()[0]["impact_estimate"]["bullets"].as_array()[0] = 1;
        }) == "details[0].impact_estimate.bullets[0]: must be a string");
  Json fusion = fd::to_json(fusion_doc());
  fusion["recommendations"].as_array()[0]["confidence"] = nullptr;
  CHECK(fd::from_json(fusion).error ==
        "recommendations[0].confidence: fusion cards need a confidence level");
  CHECK(fd::from_json(Json::array()).error == "findings document: must be a JSON object");

  // The members only the host reads to rank are dropped when malformed, not refused.
  Json lenient = fd::to_json(compute_doc(false));
  Json& card = lenient["recommendations"].as_array()[0];
  card["evidence"] = "gut feeling";
  card["saving_ms"] = Json::object();
  card["saving_ms"]["low"] = nullptr;
  card["claims"]["kernels"] = Json::array();
  card["claims"]["kernels"].push_back("7");
  card["claims"]["kernels"].push_back(8);
  const fd::ReadResult read = fd::from_json(lenient);
  REQUIRE(read.ok());
  CHECK_FALSE(read.document.recommendations[0].evidence.has_value());
  CHECK_FALSE(read.document.recommendations[0].saving_ms.has_value());
  CHECK(read.document.recommendations[0].claims.kernels == std::vector<std::int64_t>{8});
}
