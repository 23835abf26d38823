// The run's report from the CLI on the bundled Qwen1.5-0.5B sample: analysis.md and
// metadata/model_info.json (deterministic, recorded, valid), the end-of-run summary, --fail-on
// gating, diff-findings and validate --report.
#include <filesystem>
#include <string>

#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::run_loupe;

namespace {

fs::path sample() {
  return loupe::test::bundled_data_dir() / "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
}

}  // namespace

TEST_CASE("every analyze run writes analysis.md and model_info.json and says where they are",
          "[trace][cli][report]") {
  loupe::test::TempDir tmp;
  const fs::path out = tmp.path() / "run";
  const auto first = run_loupe({"analyze", "--trace", sample().string(), "-o", out.string()});
  INFO(first.out << first.err);
  REQUIRE(first.exit_code == 0);
  // The end of the run: the top five with saving in ms and %, the file, and the report.
  CHECK_THAT(
      first.out,
      Catch::Contains("\n  P1  3.885 ms (11.73%) modeled\tkernel_fusion\tUnfused RMSNorm "
                      "(5.674 ms, 49 instances)\tsystem_findings/kernel_fusion_findings.md\n") &&
          Catch::Contains("\n  P2  3.292 ms (9.94%) modeled\tgemm\t") &&
          Catch::Contains("\tcategory_findings/gemm_findings.md\n") &&
          Catch::Contains("\nReport: " + (out / "analysis.md").string() + "\n"));

  rapidjson::Document info;
  info.Parse(loupe::test::read_text(out / "metadata/model_info.json").c_str());
  REQUIRE(info.IsObject());
  CHECK(info.MemberCount() == 4);
  CHECK(std::string(info["model"].GetString()) == "Qwen2 family (Qwen1.5 / Qwen2)");
  CHECK(std::string(info["architecture"].GetString()) == "Decoder-only Transformer");
  CHECK(std::string(info["scale"].GetString()) ==
        "~0.5B (under 1B) (hidden size 1024, 16 attention heads on this GPU (16 KV, head dim 64))");
  CHECK(std::string(info["precision"].GetString()) == "BF16");

  const std::string report = loupe::test::read_text(out / "analysis.md");
  // One numbering: every finding of findings.json is the same P-item in analysis.md, and the
  // terminal's P1 is findings.json's.
  {
    rapidjson::Document run;
    run.Parse(loupe::test::read_text(out / "findings.json").c_str());
    REQUIRE(run.IsObject());
    REQUIRE(run["findings"].Size() >= 5);
    const std::string html = loupe::test::read_text(out / "report.html");
    std::size_t merged = 0;
    for (const auto& f : run["findings"].GetArray()) {
      const std::string item =
          "P" + std::to_string(f["priority"].GetInt()) + ": " + f["title"].GetString();
      INFO(item);
      CHECK_THAT(report, Catch::Contains("### ") && Catch::Contains(item));
      // An owner names the findings merged into it, in analysis.md and report.html.
      for (const auto& part : f["parts"].GetArray()) {
        const std::string named =
            std::string(part["title"].GetString()) + " (" + part["category"].GetString() + ")";
        const auto heading = report.find(item);
        REQUIRE(heading != std::string::npos);
        const auto note = report.find("*Also covers", heading);
        REQUIRE(note != std::string::npos);
        CHECK(report.substr(note, report.find('\n', note) - note).find(named) != std::string::npos);
        CHECK_THAT(html, Catch::Contains("<b>Also covers</b>"));
        ++merged;
      }
      if (f["priority"].GetInt() == 1) {
        CHECK_THAT(first.out, Catch::Contains(std::string("  P1  ")) &&
                                  Catch::Contains(std::string("\t") + f["title"].GetString()));
      }
    }
    CHECK(merged >= 1);  // the demo's SwiGLU fusion card is a part of its GEMM owner
    // priority_data.json carries the same numbering, by finding id.
    rapidjson::Document priority;
    priority.Parse(loupe::test::read_text(out / "priority_data.json").c_str());
    REQUIRE(priority.IsObject());
    std::size_t numbered = 0;
    for (const auto& p : priority["findings"].GetArray()) {
      REQUIRE(p.HasMember("run_priority"));
      if (!p["run_priority"].IsInt()) continue;
      const std::string id = p["finding_id"].GetString();
      bool same = false;
      for (const auto& f : run["findings"].GetArray()) {
        if (id == f["id"].GetString()) same = f["priority"].GetInt() == p["run_priority"].GetInt();
      }
      CHECK(same);
      ++numbered;
    }
    CHECK(numbered >= 3);
  }
  CHECK_THAT(report, Catch::StartsWith("# Qwen2 family (Qwen1.5 / Qwen2) - MI300X Standalone "
                                       "Analysis\n"));
  CHECK_THAT(report, Catch::Contains("| Total Time | 33.131 ms |") &&
                         Catch::Contains("<!-- impact-begin kind=p_item category=gemm low=8.65 "
                                         "mid=10.09 high=11.53 -->") &&
                         Catch::Contains("- **Scale**: ~0.5B (under 1B) (hidden size 1024, 16 "
                                         "attention heads on this GPU (16 KV, head dim 64))"));
  const auto valid = run_loupe({"validate", "--report", out.string()});
  CHECK(valid.exit_code == 0);
  CHECK(valid.out == "PASS: Report is valid\n");
  CHECK_THAT(loupe::test::read_text(out / "loupe_run.json"),
             Catch::Contains("\"analysis.md\"") && Catch::Contains("\"metadata/model_info.json\""));

  // A rerun into the same directory replaces the report with the same bytes.
  const auto second =
      run_loupe({"analyze", "--trace", sample().string(), "-o", out.string(), "-q"});
  REQUIRE(second.exit_code == 0);
  CHECK(loupe::test::read_text(out / "analysis.md") == report);

  // A broken report fails validation (exit 1); a missing directory is bad usage (exit 2).
  std::string broken = report;
  broken.replace(broken.find("## Appendix"), 11, "## Annex");
  loupe::test::write_text(out / "analysis.md", broken);
  const auto invalid = run_loupe({"validate", "--report", out.string()});
  CHECK(invalid.exit_code == 1);
  CHECK(invalid.out == "FAIL:\n  - Missing section: Appendix\n");
  CHECK(run_loupe({"validate", "--report", (tmp.path() / "none").string()}).exit_code == 2);
  CHECK(run_loupe({"validate", "--report", out.string(), "--tier", "compute"}).exit_code == 2);
}

TEST_CASE("--fail-on gates a CI job on the findings", "[trace][cli][report]") {
  loupe::test::TempDir tmp;
  const fs::path out = tmp.path() / "run";
  const auto gated = run_loupe({"analyze", "--trace", sample().string(), "-o", out.string(), "-q",
                                "--fail-on", "savings>3ms,idle>30%,category=gemm"});
  INFO(gated.out << gated.err);
  CHECK(gated.exit_code == 3);
  CHECK_THAT(gated.out, Catch::Contains("FAIL-ON savings>3ms: P1 kernel_fusion-") &&
                            Catch::Contains("FAIL-ON savings>3ms: P2 gemm-") &&
                            Catch::Contains("FAIL-ON category=gemm: P2 gemm-") &&
                            Catch::Contains("--fail-on matched 3 times (exit 3)"));
  CHECK(gated.out.find("FAIL-ON idle>30%") == std::string::npos);  // 10.2 % idle

  const auto clear = run_loupe({"analyze", "--trace", sample().string(), "-o", out.string(), "-q",
                                "--fail-on", "savings>50%"});
  CHECK(clear.exit_code == 0);
  CHECK(clear.out.find("FAIL-ON") == std::string::npos);

  // A bad expression stops before any work: exit 2, nothing written.
  const fs::path untouched = tmp.path() / "untouched";
  const auto bad = run_loupe({"analyze", "--trace", sample().string(), "-o", untouched.string(),
                              "--fail-on", "savings>5"});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--fail-on: 'savings>5': savings needs ms or %"));
  CHECK_FALSE(fs::exists(untouched));
}

TEST_CASE("diff-findings compares two runs by stable id", "[trace][cli][report]") {
  loupe::test::TempDir tmp;
  const fs::path a = tmp.path() / "a";
  const fs::path b = tmp.path() / "b";
  for (const auto& out : {a, b}) {
    REQUIRE(
        run_loupe({"analyze", "--trace", sample().string(), "-o", out.string(), "-q"}).exit_code ==
        0);
  }
  const auto same = run_loupe(
      {"diff-findings", a.string(), (b / "findings.json").string(), "--fail-on-regression"});
  INFO(same.out << same.err);
  CHECK(same.exit_code == 0);
  CHECK(same.out == "Appeared (0)\nVanished (0)\nGrew (0)\nUnchanged: 7\n");

  // NEW without the GEMM finding and with the first finding's saving doubled.
  rapidjson::Document doc;
  doc.Parse(loupe::test::read_text(b / "findings.json").c_str());
  REQUIRE(doc.IsObject());
  auto& findings = doc["findings"];
  const double first = findings[0]["saving_ms"]["mid"].GetDouble();
  findings[0]["saving_ms"]["mid"].SetDouble(first * 2);
  const std::string gemm_id = findings[1]["id"].GetString();
  findings.Erase(findings.Begin() + 1);
  std::string changed = loupe::test::read_text(b / "findings.json");
  {
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
    doc.Accept(writer);
    changed = buffer.GetString();
  }
  loupe::test::write_text(tmp.path() / "new.json", changed);
  const auto diff = run_loupe({"diff-findings", a.string(), (tmp.path() / "new.json").string(),
                               "--json", "--fail-on-regression"});
  CHECK(diff.exit_code == 3);
  rapidjson::Document result;
  result.Parse(diff.out.c_str());
  REQUIRE(result.IsObject());
  CHECK(result["appeared"].Size() == 0);
  REQUIRE(result["vanished"].Size() == 1);
  CHECK(std::string(result["vanished"][0]["id"].GetString()) == gemm_id);
  REQUIRE(result["grew"].Size() == 1);
  CHECK(result["grew"][0]["new_saving_ms"].GetDouble() == Approx(first * 2).epsilon(0.001));
  CHECK(result["unchanged"].GetInt() == 5);

  const auto missing = run_loupe({"diff-findings", (tmp.path() / "nope").string(), b.string()});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("OLD: cannot read"));
  const auto wrong = run_loupe({"diff-findings", (a / "loupe_run.json").string(), b.string()});
  CHECK(wrong.exit_code == 2);
  CHECK_THAT(wrong.err, Catch::Contains("OLD is not a loupe.run_findings/2 document"));
}
