// The run report on the reference pack: model identification against what each trace is known
// to be (its file name says it), and analysis.md from raw traces (standalone, inference and
// comparative) passing both Loupe's report validator and TraceLens's own validate_report.
#include <filesystem>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/report/model_info.hpp"
#include "loupe/core/validate/validator.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using namespace loupe::core;

namespace {

// TraceLens's validate_report run on `dir` (tests/tools/tracelens_validate_report.py).
void check_tracelens_accepts(const fs::path& shared, const fs::path& dir, const char* scope) {
  const auto run = loupe::test::run_process(
      "/usr/bin/python3",
      {(fs::path(LOUPE_TESTS_SOURCE_DIR) / "tools/tracelens_validate_report.py").string(),
       (shared / "reference/tracelens").string(), scope, dir.string()});
  REQUIRE(run.exit_code == 0);
  rapidjson::Document verdict;
  verdict.Parse(run.out.c_str());
  REQUIRE_FALSE(verdict.HasParseError());
  INFO("TraceLens: " << run.out);
  CHECK(verdict.HasMember("passed"));
  CHECK((verdict.HasMember("passed") && verdict["passed"].GetBool()));
}

void check_report(const fs::path& shared, const fs::path& dir, Scope scope) {
  REQUIRE(fs::is_regular_file(dir / "analysis.md"));
  const auto native = validate_report(dir, scope);
  INFO(format_validation_text(native));
  CHECK(native.passed);
  check_tracelens_accepts(shared, dir, scope == Scope::Comparative ? "comparative" : "standalone");
  // Recorded as a run output, so that the next run into the directory replaces it.
  CHECK_THAT(loupe::test::read_text(dir / "loupe_run.json"),
             Catch::Contains("\"analysis.md\"") && Catch::Contains("\"metadata/model_info.json\""));
}

struct Known {
  const char* run;  // folder under data/reference (or a trace under data/traces)
  const char* model;
  const char* architecture;
  const char* scale_prefix;
  const char* precision_prefix;
};

constexpr const char* kCannot = "Cannot be inferred from trace";

ModelInfo identify_file(const fs::path& csv) {
  return identify_model(evidence_from_unified_summary(parse_csv(loupe::test::read_text(csv))));
}

}  // namespace

TEST_CASE("model identification matches what each reference trace is known to be",
          "[report][model_info][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const std::vector<Known> known = {
      {"h100_bert", "BERT", "Transformer encoder", "small (hidden size 512)", "BF16"},
      {"mi300_bert", "BERT", "Transformer encoder", "small (hidden size 512)", "BF16"},
      {"h100_qwen", "Qwen2 family (Qwen1.5 / Qwen2)", "Decoder-only Transformer", "~0.5B", "BF16"},
      {"mi300_qwen", "Qwen2 family (Qwen1.5 / Qwen2)", "Decoder-only Transformer", "~0.5B", "BF16"},
      {"h100_owlv2", "OWLv2", "Vision Transformer (encoder)", "large (hidden size 1024)", "BF16"},
      {"h100_timesformer", "TimeSformer", "Vision Transformer (encoder)", "base (hidden size 768)",
       "BF16"},
      // Falconsai/nsfw_image_detection is a fine-tuned ViT-base.
      {"h100_falconsai", "ViT", "Vision Transformer (encoder)", "base (hidden size 768)", "BF16"},
      {"mi300_falconsai", "ViT", "Vision Transformer (encoder)", "base (hidden size 768)", "BF16"},
      {"mi300_resnet_act_checkpoint", "ResNet", "CNN (residual)", "ResNet-18/34 class", "BF16"},
      // vLLM's GPT-OSS (an MoE model): its width does not give its size. Tensor parallel on
      // 8 GPUs: this rank's attention has 8 of the 64 query heads.
      {"b200_eager", "GPT-OSS", "Decoder-only Transformer with Mixture-of-Experts",
       "hidden size 2880, 8 attention heads on this GPU (1 KV, head dim 64)", "BF16"},
  };
  std::size_t checked = 0;
  for (const auto& k : known) {
    INFO("run " << k.run);
    const ModelInfo info = identify_file(shared / "data/reference" / k.run /
                                         "perf_report_csvs/unified_perf_summary.csv");
    CHECK(info.model == k.model);
    CHECK(info.architecture == k.architecture);
    CHECK_THAT(info.scale, Catch::StartsWith(k.scale_prefix));
    CHECK_THAT(info.precision, Catch::StartsWith(k.precision_prefix));
    ++checked;
  }
  // The single-operator unit-test traces are micro-benchmarks, not models.
  std::size_t micro = 0;
  for (const auto& entry : fs::directory_iterator(shared / "data/reference")) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("ut_", 0) != 0) continue;
    INFO("run " << name);
    const ModelInfo info =
        identify_file(entry.path() / "perf_report_csvs/unified_perf_summary.csv");
    CHECK(info.model == kCannot);
    CHECK(info.architecture == kCannot);
    CHECK(info.scale == kCannot);
    ++micro;
  }
  CHECK(checked == 10);
  CHECK(micro >= 20);
}

TEST_CASE("inference traces: model_info and analysis.md from the raw trace", "[report][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const std::vector<Known> known = {
      // The sglang decode trace replays CUDA graphs: no module names, so the model (Qwen3-8B
      // per its file name) is honestly not inferred; its operators still show a Transformer.
      {"inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz", kCannot, "Transformer", kCannot,
       ""},
      {"inference/xdit_flux.1_aiter_sage/profile_trace_rank_0.json.gz", "FLUX.1",
       "Diffusion Transformer (with its text encoders and VAE)", kCannot, "BF16"},
      // GPT-OSS-20B: the LM head (vllm::rocm_unquantized_gemm 2880 -> 201088) gives the width,
      // the Triton matmul_ogs expert kernels the MoE.
      {"inference/vllm_prefilldecode_piecewise/graph_execution.json.gz", "GPT-OSS",
       "Decoder-only Transformer with Mixture-of-Experts",
       "hidden size 2880, 64 attention heads on this GPU (8 KV, head dim 64), vocabulary 201088 "
       "(total size of an MoE model",
       "BF16"},
  };
  for (const auto& k : known) {
    INFO("trace " << k.run);
    loupe::test::TempDir tmp;
    const auto r =
        loupe::test::run_loupe({"analyze", "--trace", (shared / "data/traces" / k.run).string(),
                                "-o", tmp.path().string(), "-q"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    rapidjson::Document info;
    info.Parse(loupe::test::read_text(tmp.path() / kModelInfoFile).c_str());
    REQUIRE(info.IsObject());
    CHECK(info.MemberCount() == 4);
    CHECK(std::string(info["model"].GetString()) == k.model);
    CHECK(std::string(info["architecture"].GetString()) == k.architecture);
    CHECK_THAT(std::string(info["scale"].GetString()), Catch::StartsWith(k.scale_prefix));
    CHECK_THAT(std::string(info["precision"].GetString()), Catch::StartsWith(k.precision_prefix));
    check_report(shared, tmp.path(), Scope::Standalone);
  }
}

TEST_CASE("comparative runs: analysis.md labels both traces and passes both validators",
          "[report][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t pairs = 0;
  for (const auto& entry : fs::directory_iterator(shared / "data/traces/unit_tests_comparative")) {
    if (!fs::is_directory(entry.path())) continue;
    INFO("pair " << entry.path().filename());
    loupe::test::TempDir tmp;
    const auto r = loupe::test::run_loupe(
        {"analyze", "--trace", (entry.path() / "trace1.json").string(), "--trace2",
         (entry.path() / "trace2.json").string(), "-o", tmp.path().string(), "-q"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    check_report(shared, tmp.path(), Scope::Comparative);
    CHECK_THAT(loupe::test::read_text(tmp.path() / "analysis.md"),
               Catch::Contains("Comparative Analysis: Trace 1 (") &&
                   Catch::Contains("| Metric | Trace 1 - (") && Catch::Contains("Trace 2 is "));
    ++pairs;
  }
  CHECK(pairs == 3);
}
