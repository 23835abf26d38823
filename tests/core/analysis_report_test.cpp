// analysis.md (core/src/report/analysis_report.cpp) from analyzers' rendered findings files and
// priority_data, checked with the report validator; model identification
// (core/src/report/model_info.cpp) on the bundled sample and on evidence built by hand.
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/model/model.hpp"
#include "loupe/core/report/analysis_report.hpp"
#include "loupe/core/report/model_info.hpp"
#include "loupe/core/report/perf_plot.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/validate/validator.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::Json;
using namespace loupe::core;
using loupe::Scope;
using loupe::Tier;
namespace findings = loupe::findings;

namespace {

std::string render_fixture(const char* name) {
  return loupe::test::read_text(loupe::test::bundled_data_dir() / "render" / name);
}

Json parse(const std::string& text) { return to_owned_json(*parse_json_document(text)); }

Json manifest(bool comparative) {
  std::string text = R"({"platform": "MI300X", "comparison_scope": ")" +
                     std::string(comparative ? "comparative" : "standalone") + R"(",
    "gpu_utilization": {"total_time_ms": 40.0, "computation_time_percent": 80.0,
      "idle_time_percent": 20.0, "exposed_comm_time_percent": 0.0},
    "categories": [
      {"name": "cpu_idle", "tier": "system"},
      {"name": "conv_fwd", "display_name": "CONV_fwd", "tier": "compute_kernel",
       "ops_count": 3, "gpu_kernel_time_ms": 12.8},
      {"name": "gemm", "display_name": "GEMM", "tier": "compute_kernel", "ops_count": 2,
       "gpu_kernel_time_ms": 9.6}]})";
  if (comparative) {
    text.pop_back();
    text += R"(, "trace2_gpu_utilization": {"total_time_ms": 30.0,
      "computation_time_percent": 90.0, "idle_time_percent": 10.0,
      "exposed_comm_time_percent": 0.0},
      "trace2_ops_summary_by_category": [{"op category": "CONV_fwd",
        "total_direct_kernel_time_ms": 8.0}]})";
  }
  return parse(text);
}

Json priority_data(bool with_findings) {
  if (!with_findings) {
    return parse(R"({"baseline_ms": 40.0, "priorities": [], "recommendations": [],
                     "findings": [], "all_estimates": []})");
  }
  return parse(R"({"baseline_ms": 40.0,
    "priorities": [{"rank": 1, "category": "conv_fwd", "display_name": "CONV_fwd",
      "impact_score": 4.87, "impact_score_low": 4.3, "impact_score_high": 5.0,
      "source": "findings_rollup"}],
    "recommendations": [],
    "findings": [{"category": "conv_fwd", "category_rank": 1, "global_rank": 1,
      "impact_score": 4.87, "impact_score_low": 4.3, "impact_score_high": 5.0,
      "estimate_method": "heuristic"}],
    "all_estimates": []})");
}

ReportCategory category(const char* name, Tier tier, const char* style, findings::Status status,
                        std::string markdown, std::string message = {}) {
  ReportCategory c;
  c.category = name;
  c.tier = tier;
  c.style = style;
  c.status = status;
  c.markdown = std::move(markdown);
  c.message = std::move(message);
  c.findings_path = std::string(tier == Tier::Compute ? "category_findings/" : "system_findings/") +
                    name + "_findings.md";
  return c;
}

// Writes the report beside its priority_data.json and the conv metrics the Args cells name,
// then runs the report validator on the directory.
ValidationResult validate(const fs::path& dir, const AnalysisReportInput& in,
                          const std::string& report, std::optional<Scope> scope) {
  loupe::test::write_text(dir / "analysis.md", report);
  loupe::test::write_text(dir / "priority_data.json", loupe::dump_python_json(in.priority_data));
  loupe::test::write_text(
      dir / "category_data/conv_fwd_metrics.json",
      R"({"operations": [{"name": "aten::convolution", "args": "(1,3,224,224) bf16<br>(64,3,7,7) bf16"}]})");
  return validate_report(dir, scope);
}

}  // namespace

TEST_CASE("analysis.md joins the analyzers' cards to priority_data and validates", "[report]") {
  AnalysisReportInput in;
  in.manifest = manifest(false);
  in.priority_data = priority_data(true);
  in.categories.push_back(category("cpu_idle", Tier::System, "system", findings::Status::Ok,
                                   render_fixture("system_standalone.md")));
  in.categories.push_back(category("conv_fwd", Tier::Compute, "compute", findings::Status::Ok,
                                   render_fixture("compute_standalone.md")));
  in.categories.push_back(category("kernel_fusion", Tier::System, "fusion", findings::Status::Ok,
                                   render_fixture("fusion_standalone.md")));
  in.categories.push_back(category("gemm", Tier::Compute, "", findings::Status::Error, "",
                                   "the plugin process was killed by signal 11"));
  in.unhandled = {"moe_fused"};
  in.model.model = "ResNet";
  in.platform.name = "MI300X";
  in.platform.hbm_tb_per_s = 5.3;
  in.platform.bf16_tflops = 708;
  const std::string report = build_analysis_report(in);

  CHECK_THAT(report, Catch::StartsWith("# ResNet - MI300X Standalone Analysis\n"));
  CHECK_THAT(report, Catch::Contains("| Total Time | 40.000 ms |\n| Compute % | 80.0% |\n"
                                     "| Idle % | 20.0% |\n| Exposed Communication % | 0.0% |\n"
                                     "| Top Bottleneck Category | CONV_fwd (40.0%) |"));
  // The failed category and the unhandled one are warned about, not left out.
  CHECK_THAT(report, Catch::Contains("## Warnings") &&
                         Catch::Contains("| gemm | Compute Kernel | the plugin process was killed "
                                         "by signal 11 |") &&
                         Catch::Contains("| moe_fused | Compute Kernel | no analyzer plugin"));
  // The compute card: the analyzer's title, insight and action, priority_data's numbers.
  CHECK_THAT(report,
             Catch::Contains("### \xF0\x9F\x94\xB4 P1: Low-efficiency convolutions (MIOpen)") &&
                 Catch::Contains("**Action**: Try a channels-last layout.") &&
                 Catch::Contains("<!-- impact-begin kind=p_item category=conv_fwd low=4.3 "
                                 "mid=4.87 high=5.0 -->") &&
                 Catch::Contains("**Impact**: impact_score: 4.87 (1.948 ms of 40.000 ms E2E, "
                                 "estimated)") &&
                 Catch::Contains("| 1 | CONV_fwd | 12.8 | 40.0% | 3 | <!-- top-ops-row "
                                 "low=4.3 high=5.0 -->"));
  // Fusion and system cards, and the detailed blocks joined to them.
  CHECK_THAT(report, Catch::Contains("### \xF0\x9F\x94\xB4 P1: Unfused RMSNorm (4.789 ms, 49 "
                                     "instances)") &&
                         Catch::Contains("### \xF0\x9F\x94\xB4 P1: Communication blocks compute") &&
                         Catch::Contains("<!-- reasoning-candidate tier=compute rank=1 -->\n#### "
                                         "\xF0\x9F\x94\xB4 P1: Low-efficiency convolutions") &&
                         Catch::Contains("**Reasoning for Slowdown:** Small channel counts") &&
                         Catch::Contains("<!-- reasoning-candidate tier=fusion rank=1 -->") &&
                         Catch::Contains("<!-- reasoning-candidate tier=system rank=1 -->"));
  CHECK_THAT(report, Catch::Contains("- **Model**: ResNet\n- **Architecture**: Cannot be "
                                     "inferred from trace\n") &&
                         Catch::Contains("- **Peak HBM BW**: 5.30 TB/s\n- **Peak MAF (BF16)**: "
                                         "708 TFLOPS"));
  CHECK(report.find("\n\n\n") == std::string::npos);

  loupe::test::TempDir tmp;
  const auto result = validate(tmp.path(), in, report, Scope::Standalone);
  INFO(format_validation_text(result));
  CHECK(result.passed);
  // A report that drops the P-item breaks R1 against the same priority_data.
  std::string broken = report;
  broken.replace(broken.find("### \xF0\x9F\x94\xB4 P1: Low-efficiency"), 4, "#### ");
  const auto bad = validate(tmp.path(), in, broken, Scope::Standalone);
  CHECK_FALSE(bad.passed);
}

TEST_CASE("a run with no findings writes an honest report that validates", "[report]") {
  AnalysisReportInput in;
  in.manifest = manifest(false);
  in.priority_data = priority_data(false);
  const std::string no_cards =
      "# gemm Analysis\n\n## Recommendations\n\nNothing to fix.\n\n"
      "## Detailed Analysis\n\nNothing to fix.\n";
  in.categories.push_back(
      category("gemm", Tier::Compute, "compute", findings::Status::Ok, no_cards));
  in.categories.push_back(
      category("cpu_idle", Tier::System, "system", findings::Status::NoData, ""));
  const std::string report = build_analysis_report(in);
  CHECK_THAT(report, Catch::StartsWith("# Workload - MI300X Standalone Analysis"));
  CHECK_THAT(report, Catch::Contains("No compute kernel optimization opportunities identified") &&
                         Catch::Contains("No kernel fusion opportunities detected.") &&
                         Catch::Contains("No system-level bottlenecks detected.") &&
                         Catch::Contains("Loupe found 0 compute-kernel findings, 0 kernel-fusion "
                                         "candidates and 0 system-level findings."));
  CHECK(report.find("## Warnings") == std::string::npos);  // NO_DATA is not a failure
  loupe::test::TempDir tmp;
  const auto result = validate(tmp.path(), in, report, Scope::Standalone);
  INFO(format_validation_text(result));
  CHECK(result.passed);
}

TEST_CASE("a comparative report labels both traces", "[report]") {
  AnalysisReportInput in;
  in.scope = Scope::Comparative;
  in.manifest = manifest(true);
  in.priority_data = priority_data(true);
  in.categories.push_back(category("conv_fwd", Tier::Compute, "compute", findings::Status::Ok,
                                   render_fixture("compute_standalone.md")));
  in.categories.push_back(category("kernel_fusion", Tier::System, "fusion", findings::Status::Ok,
                                   render_fixture("fusion_standalone.md")));
  const std::string report = build_analysis_report(in);
  CHECK_THAT(report, Catch::StartsWith("# Workload - Comparative Analysis: Trace 1 (MI300X) vs "
                                       "Trace 2 (MI300X)"));
  CHECK_THAT(report,
             Catch::Contains("| Total Time | 40.000 ms | 30.000 ms | -10.000 ms (-25.0%) |") &&
                 Catch::Contains("Trace 2 is 25.0% faster than Trace 1.") &&
                 Catch::Contains("| Top Bottleneck Category | CONV_fwd (40.0%) | CONV_fwd "
                                 "(29.6%) |") &&
                 Catch::Contains("| 1 | CONV_fwd | 12.8 | 8.0 | 40.0% | 3 | -4.800 |"));
  // Comparative fusion Impact lines carry no coverage parenthetical.
  CHECK_THAT(report, Catch::Contains("**Impact**: impact_score: 11.72\n"));
  loupe::test::TempDir tmp;
  const auto result = validate(tmp.path(), in, report, Scope::Comparative);
  INFO(format_validation_text(result));
  CHECK(result.passed);
}

TEST_CASE("the bundled Qwen1.5-0.5B sample is identified from its modules, shapes and dtypes",
          "[report][model_info]") {
  const auto table = parse_csv(
      loupe::test::read_text(loupe::test::bundled_data_dir() /
                             "samples/mi300_qwen/perf_report_csvs/unified_perf_summary.csv"));
  const ModelEvidence evidence = evidence_from_unified_summary(table);
  CHECK(evidence.ops.size() == 35);
  CHECK(evidence.modules == std::vector<std::string>{"Embedding", "Linear", "Qwen2Attention",
                                                     "Qwen2DecoderLayer", "Qwen2MLP", "Qwen2Model",
                                                     "Qwen2RMSNorm", "Qwen2RotaryEmbedding",
                                                     "SiLU"});
  const ModelInfo info = identify_model(evidence);
  CHECK(info.model == "Qwen2 family (Qwen1.5 / Qwen2)");
  CHECK(info.architecture == "Decoder-only Transformer");
  CHECK(info.scale ==
        "~0.5B (under 1B) (hidden size 1024, 16 attention heads on this GPU (16 KV, head dim 64))");
  CHECK(info.precision == "BF16");
  const Json j = model_info_json(info);
  CHECK(j.size() == 4);  // exactly TraceLens's four keys
}

// A Qwen3-8B served by SGLang on ROCm, as its ops table shows it: 36 decoder layers of
// aiter::gemm_a16w16 (fused qkv 4096 -> 6144, o 4096 -> 4096, fused gate/up 4096 -> 24576,
// down 12288 -> 4096), the LM head as aten::mm (4096 -> 151936) once per step, the paged
// attention of 32 query and 8 KV heads of 128, over 3 steps.
ModelEvidence qwen3_8b_serving(bool with_head) {
  ModelEvidence e;
  const double steps = 3;
  const std::string bf16 = "('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16', 'Scalar')";
  for (const auto& [n, k] : {std::pair{6144, 4096}, std::pair{4096, 4096}, std::pair{24576, 4096},
                             std::pair{4096, 12288}}) {
    e.ops.push_back({"aiter::gemm_a16w16", bf16,
                     "((64, " + std::to_string(k) + "), (" + std::to_string(n) + ", " +
                         std::to_string(k) + "), (), ())",
                     36 * steps, 1000.0});
  }
  if (with_head) {
    e.ops.push_back({"aten::mm", "('c10::BFloat16', 'c10::BFloat16')",
                     "((64, 4096), (4096, 151936))", steps, 300.0});
  }
  e.ops.push_back({"aiter::mha_batch_prefill", "('c10::BFloat16', 'c10::BFloat16')",
                   "((64, 32, 128), (70000, 8, 128), (70000, 8, 128))", 36 * steps, 500.0});
  e.engine_model_files = {"qwen3"};
  return e;
}

TEST_CASE("a served Qwen3-8B: hidden size from the LM head's input, not its vocabulary",
          "[report][model_info]") {
  const ModelInfo info = identify_model(qwen3_8b_serving(true));
  CHECK(info.model == "Qwen3");
  CHECK(info.architecture == "Decoder-only Transformer");
  // Linear weights per step: 36 * (6144 + 4096 + 24576 + 12288) * 4096 + 4096 * 151936
  // = 6945767424 + 622329856 = 7.57e9; with an untied embedding of the LM head's size 8.19e9.
  CHECK(info.scale ==
        "~7.6-8.2B (hidden size 4096, 36 layers, 32 attention heads on this GPU (8 KV, head dim "
        "128), "
        "vocabulary 151936)");
  CHECK(info.precision == "BF16");
  CHECK_THAT(info.evidence.back(), Catch::Contains("7.6B parameters in the linear layers"));

  // The vocabulary never passes for the width: without the decoder layers' GEMMs, the LM head
  // alone still gives hidden size 4096 (a 7-8B bucket), not "~70B or larger".
  ModelEvidence head_only = qwen3_8b_serving(true);
  head_only.ops.erase(head_only.ops.begin(), head_only.ops.begin() + 4);
  const ModelInfo from_head = identify_model(head_only);
  CHECK_THAT(from_head.scale, Catch::StartsWith("~7-8B (hidden size 4096"));
  CHECK_THAT(from_head.scale, !Catch::Contains("70B"));

  // Without an LM head the width is the most frequent weight dimension (4096), no layer count.
  const ModelInfo no_head = identify_model(qwen3_8b_serving(false));
  CHECK_THAT(no_head.scale, Catch::StartsWith("~7-8B (hidden size 4096, 32 attention heads"));
  CHECK_THAT(no_head.scale, !Catch::Contains("layers"));

  // A model file the table does not know names no family.
  ModelEvidence unknown = qwen3_8b_serving(true);
  unknown.engine_model_files = {"utils"};
  CHECK(identify_model(unknown).model == kCannotInfer);
}

TEST_CASE("model identification says what it cannot infer", "[report][model_info]") {
  ModelEvidence none;
  const ModelInfo empty = identify_model(none);
  for (const auto* field : {&empty.model, &empty.architecture, &empty.scale, &empty.precision}) {
    CHECK(*field == kCannotInfer);
  }
  // A lone attention kernel (a micro-benchmark) is not a model: only the dtype is known.
  ModelEvidence lone;
  lone.ops.push_back({"aten::_scaled_dot_product_flash_attention", "('c10::Half', 'c10::Half')",
                      "((4, 16, 2048, 64), (4, 16, 2048, 64))", 1, 500.0});
  const ModelInfo micro = identify_model(lone);
  CHECK(micro.model == kCannotInfer);
  CHECK(micro.architecture == kCannotInfer);
  CHECK(micro.precision == "FP16");
  // Convolutions under a ResNet with BasicBlocks.
  ModelEvidence cnn;
  cnn.modules = {"BasicBlock", "BatchNorm2d", "Conv2d", "ResNet"};
  for (const long long c : {64, 128, 256, 512}) {
    cnn.ops.push_back({"aten::cudnn_convolution", "('float', 'float')",
                       "((32, " + std::to_string(c) + ", 56, 56), (" + std::to_string(c) + ", " +
                           std::to_string(c) + ", 3, 3))",
                       10, 100.0});
  }
  const ModelInfo resnet = identify_model(cnn);
  CHECK(resnet.model == "ResNet");
  CHECK(resnet.architecture == "CNN (residual)");
  CHECK(resnet.scale == "ResNet-18/34 class (BasicBlock, up to 512 channels)");
  CHECK(resnet.precision == "FP32");
}

TEST_CASE("the plot: TraceLens's stacked-bar data as SVG and, with cairo, as PNG", "[report]") {
  const auto segments = perf_breakdown(manifest(false));
  REQUIRE(segments.size() == 3);
  CHECK(segments[0].label == "Conv_fwd");
  CHECK(segments[0].time_ms == 12.8);
  CHECK(segments[0].percent == Approx(32.0));
  CHECK(segments[0].color == "#e74c3c");
  CHECK(segments[1].label == "Gemm");
  CHECK(segments[1].color == "#e67e22");
  CHECK(segments[2].label == "Non-computing");
  CHECK(segments[2].time_ms == Approx(17.6));
  CHECK(segments[2].color == "#aab7c4");
  const std::string svg = perf_breakdown_svg(segments, "ResNet - MI300X: GPU time by category");
  CHECK_THAT(svg, Catch::StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\"") &&
                      Catch::Contains("Non-computing \xE2\x80\x94 17.6 ms (44.0%)") &&
                      Catch::Contains("<title>ResNet - MI300X: GPU time by category</title>"));
  CHECK(svg.find("<script") == std::string::npos);
  // No positive total time: nothing to plot.
  CHECK(perf_breakdown(to_owned_json(*parse_json_document(R"({"gpu_utilization": {}})"))).empty());

  const std::string png = perf_breakdown_png(segments, "ResNet - MI300X: GPU time by category");
  if (perf_png_available()) {
    REQUIRE(png.size() > 1000);
    CHECK(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
    CHECK(png.compare(12, 4, "IHDR") == 0);
  } else {
    WARN("built without cairo: perf_improvement.png is not written");
    CHECK(png.empty());
  }
}
