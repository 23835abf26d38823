// The conv plugin through the real CLI, on the small fixtures in tests/data/conv (no reference
// pack needed): TraceLens parity of the metrics, findings that pass both validators, the
// corrected mode, NO_DATA, and bad input.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "cli_runner.hpp"
#include "conv_test_support.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

fs::path fixture(const std::string& name) {
  return loupe::test::bundled_data_dir() / "conv" / name;
}

bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

struct Case {
  const char* name;
  const char* scope;
};

}  // namespace

TEST_CASE("conv: compat metrics equal TraceLens byte for byte; findings pass both validators") {
  for (const Case c :
       {Case{"falconsai", "standalone"}, Case{"tc5", "standalone"}, Case{"tc9", "standalone"},
        Case{"tc10", "comparative"}, Case{"tc_empty", "standalone"}}) {
    INFO("case " << c.name);
    TempDir tmp;
    const fs::path dir = tmp.path() / "in";
    const fs::path out = tmp.path() / "out";
    conv_test::make_analysis_dir(fixture(c.name), dir);
    const auto run = conv_test::analyze(dir, out, "conv_fwd", true, {"--scope", c.scope});
    INFO(run.err);
    REQUIRE(run.exit_code == 0);
    CHECK(conv_test::metrics_with_placeholder(out, "conv_fwd", dir) ==
          read_text(fixture(c.name) / "expected_conv_fwd_metrics.json"));
    const fs::path findings = out / "category_findings" / "conv_fwd_findings.md";
    for (const bool compat : {false, true}) {
      const auto check = conv_test::validate(findings, c.scope, compat);
      INFO(check.out << check.err);
      CHECK(check.exit_code == 0);
    }
  }
}

TEST_CASE("conv: the findings file carries the metrics values verbatim") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  conv_test::make_analysis_dir(fixture("falconsai"), dir);
  REQUIRE(conv_test::analyze(dir, tmp.path() / "out", "conv_fwd", true).exit_code == 0);
  const std::string md = read_text(tmp.path() / "out/category_findings/conv_fwd_findings.md");
  CHECK(contains(md, "### P1: Compute-bound convolutions at 0-30% of roofline (PyTorch Native)"));
  CHECK(contains(md, "<!-- impact-begin kind=p_item low=0.56 mid=0.66 high=0.75 -->"));
  CHECK(contains(md, "<!-- impact-begin kind=detail_estimate low=0.56 high=0.75 -->"));
  CHECK(contains(md,
                 "| aten::convolution | (4,3,224,224) bf16<br>(768,3,16,16) bf16<br>(768,) "
                 "bf16<br>() ScalarList<br>() ScalarList<br>() ScalarList<br>() ScalarList | "
                 "torch/nn/modules/conv.py(536): _conv_forward | Kernel 1: "));
  CHECK(contains(md, "| 0.053 | 0.77 | 1 | 257.75 | 2.46% of 708 TFLOPS | compute-bound |"));
  CHECK(contains(md, "(Large kernel) run compute-bound at 2.46-2.46% of roofline"));
  CHECK(contains(
      md, "They belong to model layer ViTModel > ViTEmbeddings > ViTPatchEmbeddings > Conv2d."));
  CHECK(contains(md, "- Transpose overhead: 0.0% of category kernel time (acceptable)"));
  for (const char* vendor : {"CUDA", "HIP", "cuDNN", "MIOpen"}) {
    INFO(vendor);
    CHECK_FALSE(contains(md, vendor));
  }
}

TEST_CASE("conv: heuristic and comparative findings") {
  TempDir tmp;
  conv_test::make_analysis_dir(fixture("tc5"), tmp.path() / "a");
  REQUIRE(conv_test::analyze(tmp.path() / "a", tmp.path() / "oa", "conv_fwd", true).exit_code == 0);
  const std::string heuristic = read_text(tmp.path() / "oa/category_findings/conv_fwd_findings.md");
  CHECK(contains(heuristic, "### P1: Unmodeled op aten::cudnn_convolution\n"));
  CHECK(contains(heuristic,
                 "> **Warning \xE2\x80\x94 estimated:** No performance model for this "
                 "op; impact is derived from its E2E GPU-time share (1.8%), not a gap "
                 "projection."));
  CHECK(contains(heuristic,
                 "| aten::cudnn_convolution | (1,3,8,8) fp32<br>(4,3,1,1) fp32 | Not "
                 "found | \xE2\x80\x94 | 0.08 | 0.8 | 1 | \xE2\x80\x94 | \xE2\x80\x94 | "
                 "\xE2\x80\x94 |"));

  conv_test::make_analysis_dir(fixture("tc10"), tmp.path() / "b");
  REQUIRE(conv_test::analyze(tmp.path() / "b", tmp.path() / "ob", "conv_fwd", true,
                             {"--scope", "comparative"})
              .exit_code == 0);
  const std::string comparative =
      read_text(tmp.path() / "ob/category_findings/conv_fwd_findings.md");
  CHECK(contains(comparative, "### P1: Compute-bound convolutions slower than Trace 2\n"));
  CHECK(contains(comparative,
                 "| Operation | Args (T1) | Kernel Path | Kernel Name | Trace 1 Time "
                 "(ms) | Trace 2 Time (ms) | Count (T1/T2) | Difference (ms) | "
                 "FLOPS/Byte (T1) | Bound (T1) |"));
  CHECK(contains(comparative, "| 2.0 | 1.0 | 4 / 4 | -1.0 | 300.0 | compute-bound |"));
}

TEST_CASE("conv: corrected mode on the Falconsai conv (I-1, I-5, I-6, I-12)") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  conv_test::make_analysis_dir(fixture("falconsai"), dir);
  REQUIRE(conv_test::analyze(dir, tmp.path() / "out", "conv_fwd", false).exit_code == 0);
  const std::string metrics = read_text(tmp.path() / "out/category_data/conv_fwd_metrics.json");
  // I-1: three batched_transpose launches, 12.226 us of 53.117 us.
  CHECK(contains(metrics, "\"transpose_count\": 3,"));
  CHECK(contains(metrics, "\"transpose_time_ms\": 0.012,"));
  CHECK(contains(metrics, "\"transpose_overhead_percent\": 23.02,"));
  CHECK(contains(metrics, "\"layout_transform_percent\": 23.02"));
  // I-5: no "() ScalarList" slots; the bias tensor stays.
  CHECK(
      contains(metrics, "\"args\": \"(4,3,224,224) bf16<br>(768,3,16,16) bf16<br>(768,) bf16\","));
  // I-6: the igemm kernel names the DNN library, not the bias-add kernel.
  CHECK(contains(metrics, "\"library\": \"MIOpen\","));
  // I-12: the peak of the dominant Compute Spec, with the bf16 peak kept beside it.
  CHECK(contains(metrics, "\"peak_maf_tflops\": 708,"));
  CHECK(contains(metrics, "\"peak_maf_tflops_bf16\": 708,"));
  const fs::path findings = tmp.path() / "out/category_findings/conv_fwd_findings.md";
  CHECK(conv_test::validate(findings, "standalone", true).exit_code == 0);
  const std::string md = read_text(findings);
  CHECK(contains(md, "- Transpose overhead: 23.02% of category kernel time (high)"));
  CHECK(contains(md, "### P1: Compute-bound convolutions at 0-30% of roofline (MIOpen)\n"));
  CHECK(contains(md, "Their dominant kernels come from the library named in the title."));
  // The vendor library name appears only in the title suffixes (card and detail of the tuning
  // finding and of the layout-conversion finding, docs/deviations.md C1), never in prose.
  size_t mentions = 0;
  for (size_t pos = md.find("MIOpen"); pos != std::string::npos; pos = md.find("MIOpen", pos + 1)) {
    ++mentions;
  }
  CHECK(mentions == 4);
}

TEST_CASE("conv: header-only CSV is NO_DATA in the corrected mode, ERROR in compat (TC-12, I-9)") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  conv_test::make_analysis_dir(fixture("tc12"), dir);
  const auto corrected = conv_test::analyze(dir, tmp.path() / "a", "conv_fwd", false);
  CHECK(corrected.exit_code == 0);
  const std::string metrics = read_text(tmp.path() / "a/category_data/conv_fwd_metrics.json");
  CHECK(contains(metrics, "\"status\": \"NO_DATA\""));
  CHECK(contains(metrics, "\"category_findings\": []"));
  CHECK(conv_test::validate(tmp.path() / "a/category_findings/conv_fwd_findings.md", "standalone",
                            true)
            .exit_code == 0);

  const auto compat = conv_test::analyze(dir, tmp.path() / "b", "conv_fwd", true);
  CHECK(compat.exit_code == 1);
  CHECK(contains(read_text(tmp.path() / "b/category_data/conv_fwd_metrics.json"),
                 "\"error\": \"category_data/conv_fwd_ops.csv has a header but no rows\""));

  // 0-byte CSV and a missing CSV are NO_DATA too.
  write_text(dir / "category_data/conv_fwd_ops.csv", "");
  CHECK(conv_test::analyze(dir, tmp.path() / "c", "conv_fwd", false).exit_code == 0);
  fs::remove(dir / "category_data/conv_fwd_ops.csv");
  CHECK(conv_test::analyze(dir, tmp.path() / "d", "conv_fwd", false).exit_code == 0);
  CHECK(contains(read_text(tmp.path() / "d/category_data/conv_fwd_metrics.json"), "NO_DATA"));
  // TraceLens's own ERROR for a missing CSV (TC-12).
  CHECK(conv_test::analyze(dir, tmp.path() / "e", "conv_fwd", true).exit_code == 1);
  CHECK(conv_test::metrics_with_placeholder(tmp.path() / "e", "conv_fwd", dir) ==
        "{\n  \"category\": \"conv_fwd\",\n  \"status\": \"ERROR\",\n  \"error\": \"Category CSV "
        "not found: <output_dir>/category_data/conv_fwd_ops.csv\",\n  \"comparison_scope\": "
        "\"standalone\"\n}");
}

TEST_CASE("conv: bad input gives ERROR metrics and findings naming the file and the problem") {
  struct Bad {
    const char* what;
    const char* file;
    const char* content;
    const char* message;
  };
  const std::string header =
      "name,op category,Input Dims,Input type,operation_count,Kernel Time (\xC2\xB5s)_sum,Pct "
      "Roofline_mean\n";
  const std::string text_in_kt = header + "aten::convolution,CONV_fwd,,,1,abc,10\n";
  const std::string nan_count = header + "aten::convolution,CONV_fwd,,,,100,10\n";
  const std::string ragged = header + "aten::convolution,CONV_fwd,,,1,100,10,extra,extra\n";
  const std::vector<Bad> cases{
      {"malformed metadata", "metadata/conv_fwd_metadata.json",
       "{\"gpu_utilization\": ", "metadata/conv_fwd_metadata.json is not valid JSON"},
      {"metadata of the wrong type", "metadata/conv_fwd_metadata.json", "[1, 2]",
       "metadata/conv_fwd_metadata.json must hold a JSON object"},
      {"text peak", "metadata/conv_fwd_metadata.json", "{\"peak_hbm_bw_tbs\": \"fast\"}",
       "metadata/conv_fwd_metadata.json: peak_hbm_bw_tbs must be a number"},
      {"text kernel time", "category_data/conv_fwd_ops.csv", text_in_kt.c_str(),
       "category_data/conv_fwd_ops.csv: column 'Kernel Time (\\u00b5s)_sum' row 1 is not a "
       "number: 'abc'"},
      {"NaN count", "category_data/conv_fwd_ops.csv", nan_count.c_str(),
       "category_data/conv_fwd_ops.csv: column 'operation_count' row 1 is empty"},
      {"ragged CSV", "category_data/conv_fwd_ops.csv", ragged.c_str(),
       "category_data/conv_fwd_ops.csv could not be parsed"},
  };
  for (const auto& bad : cases) {
    for (const bool compat : {false, true}) {
      INFO(bad.what << (compat ? " (compat)" : ""));
      TempDir tmp;
      const fs::path dir = tmp.path() / "in";
      conv_test::make_analysis_dir(fixture("tc9"), dir);
      write_text(dir / bad.file, bad.content);
      const auto run = conv_test::analyze(dir, tmp.path() / "out", "conv_fwd", compat);
      CHECK(run.exit_code == 1);
      const std::string metrics = read_text(tmp.path() / "out/category_data/conv_fwd_metrics.json");
      INFO(metrics);
      CHECK(contains(metrics, "\"status\": \"ERROR\""));
      CHECK(contains(metrics, bad.message));
      CHECK(contains(metrics, "\"category_findings\": []") == !compat);
      const std::string md = read_text(tmp.path() / "out/category_findings/conv_fwd_findings.md");
      CHECK(contains(md, "ERROR"));
      if (!compat)
        CHECK(conv_test::validate(tmp.path() / "out/category_findings/conv_fwd_findings.md",
                                  "standalone", false)
                  .exit_code == 0);
    }
  }
}

TEST_CASE("conv C1-C4: layout card, savings in ms, below-the-gates list (default mode)") {
  TempDir tmp;
  const fs::path dir = tmp.path() / "in";
  conv_test::make_analysis_dir(fixture("falconsai"), dir);
  REQUIRE(conv_test::analyze(dir, tmp.path() / "out", "conv_fwd", false).exit_code == 0);
  const std::string metrics = read_text(tmp.path() / "out/category_data/conv_fwd_metrics.json");
  // C1: 23.02% of the conv kernel time is layout transforms (12.226 us): their own finding,
  // saving their measured time, and the tuning finding no longer counts them.
  CHECK(contains(metrics, "\"layout_conversion_finding\": {"));
  CHECK(contains(metrics, "\"estimated_savings_ms_high\": 0.012,"));
  CHECK(contains(metrics, "\"layout_transform_ms_excluded\": 0.012"));
  // C2: the finding lists its libraries.
  CHECK(contains(metrics, "\"libraries\": [\n        \"MIOpen\"\n      ]"));
  // C3: every operation is in a finding here, so the list is empty.
  CHECK(contains(metrics, "\"below_gates\": []"));
  const std::string md = read_text(tmp.path() / "out/category_findings/conv_fwd_findings.md");
  CHECK(contains(md,
                 ": Layout conversion: NCHW/NHWC transpose kernels take 23.02% of convolution "
                 "time (MIOpen)\n"));
  CHECK(contains(md, "`model = model.to(memory_format=torch.channels_last)`"));
  // C4: a saving in ms on every card.
  size_t cards = 0;
  size_t savings = 0;
  for (size_t pos = md.find("\n### "); pos != std::string::npos; pos = md.find("\n### ", pos + 1)) {
    ++cards;
  }
  for (size_t pos = md.find("**Impact**: impact_score: "); pos != std::string::npos;
       pos = md.find("**Impact**: impact_score: ", pos + 1)) {
    const std::string line = md.substr(pos, md.find('\n', pos) - pos);
    if (contains(line, "; estimated saving ") && contains(line, " ms (high ")) ++savings;
  }
  CHECK(cards == 2);
  CHECK(savings == cards);
  // Only the layout card names channels-last; the tuning card keeps its own action.
  const std::string action = "**Action**: Convert the model and its inputs to channels-last";
  CHECK(md.find(action) != std::string::npos);
  CHECK(md.find(action) == md.rfind(action));
  CHECK(conv_test::validate(tmp.path() / "out/category_findings/conv_fwd_findings.md", "standalone",
                            true)
            .exit_code == 0);
}
