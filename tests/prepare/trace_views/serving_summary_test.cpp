// Serving steps and GPU-graph replays (core/src/prepare/trace_views/serving_summary.cpp) and the
// serving part of the run report (core/src/report/serving_report.cpp); docs/report.md, "Serving
// steps and GPU graphs". Real numbers: the bundled SGLang decode trace (tests/data/serving), a
// small hand-written trace for the rules the real traces do not reach, and the four
// serving-engine traces of the reference pack ([pack]).
#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include <optional>
#include <tuple>

#include "cli_runner.hpp"
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/prepare/serving_summary.hpp"
#include "loupe/core/report/serving_report.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/step_labels.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/kernel_names.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;
using loupe::Json;

namespace {

// The serving block of findings.json for a trace, as `loupe analyze --trace` builds it.
Json serving_block(const fs::path& trace) {
  auto loaded = lt::load_trace(trace);
  REQUIRE_FALSE(loaded.error.has_value());
  const auto tree = lt::EventTree::build(loaded.model, lp::prepare_tree_options());
  const auto summary = lp::build_serving_summary(loaded.model, tree);
  return loupe::core::serving_report_block(lp::serving_summary_json(summary));
}

double num(const Json& o, std::string_view key) {
  const Json* v = o.find(key);
  REQUIRE(v != nullptr);
  REQUIRE(v->is_number());
  return v->as_double();
}
std::string text(const Json& o, std::string_view key) {
  const Json* v = o.find(key);
  REQUIRE(v != nullptr);
  return v->is_string() ? v->as_string() : std::string("(not a string)");
}
const Json& at(const Json& o, std::string_view key, std::size_t i) {
  const Json* v = o.find(key);
  REQUIRE(v != nullptr);
  REQUIRE(v->is_array());
  REQUIRE(v->size() > i);
  return v->as_array()[i];
}
std::vector<std::string> finding_ids(const Json& block) {
  std::vector<std::string> ids;
  for (const auto& f : block.find("findings")->as_array()) ids.push_back(text(f, "id"));
  return ids;
}

}  // namespace

TEST_CASE("step labels name the phase, the requests and the tokens", "[serving]") {
  const auto vllm = lt::parse_step_label(
      "execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)_generation_37(sq37sk34489sqsq37"
      "sqsk34489)");
  REQUIRE(vllm);
  CHECK(vllm->format == lt::StepLabelFormat::kVllmExecute);
  CHECK(vllm->phase == lt::StepPhase::kMixed);
  CHECK(vllm->prefill_requests == 9);
  CHECK(vllm->decode_requests == 37);
  CHECK(vllm->prefill_tokens == 8155);
  CHECK(vllm->decode_tokens == 37);

  const auto native = lt::parse_step_label("execute_context_2(14721)_generation_0(0)");
  REQUIRE(native);
  CHECK(native->phase == lt::StepPhase::kPrefill);
  CHECK(native->prefill_requests == 2);
  CHECK(native->prefill_tokens == 14721);

  const auto sglang = lt::parse_step_label("step[DECODE bs=64]");
  REQUIRE(sglang);
  CHECK(sglang->format == lt::StepLabelFormat::kSglangStep);
  CHECK(sglang->phase == lt::StepPhase::kDecode);
  CHECK(sglang->batch_size == 64);
  CHECK(sglang->decode_requests == 64);
  CHECK_FALSE(sglang->decode_tokens);
  const auto extend = lt::parse_step_label("step[EXTEND bs=3 c_sq=900 c_sk=900 c_sqsq=1 c_sqsk=1]");
  REQUIRE(extend);
  CHECK(extend->phase == lt::StepPhase::kPrefill);
  CHECK(extend->prefill_tokens == 900);

  const auto atom = lt::parse_step_label("decode[bs=32 tok=128 d=32]");
  REQUIRE(atom);
  CHECK(atom->format == lt::StepLabelFormat::kAtom);
  CHECK(atom->phase == lt::StepPhase::kDecode);
  CHECK(atom->decode_requests == 32);
  CHECK(atom->decode_tokens == 128);

  const auto xdit = lt::parse_step_label("execute_diffusion_1_256x256");
  REQUIRE(xdit);
  CHECK(xdit->phase == lt::StepPhase::kDiffusion);

  CHECK_FALSE(lt::parse_step_label("ProfilerStep#3"));
  CHECK_FALSE(lt::parse_step_label("## Call CompiledFxGraph abc ##"));
  CHECK_FALSE(lt::parse_step_label(""));
}

TEST_CASE("kernel names are shortened for titles", "[serving]") {
  CHECK(loupe::short_kernel_name("void at::native::reduce_kernel<512, 1>(float*, int)") ==
        "at::native::reduce_kernel");
  CHECK(loupe::short_kernel_name(
            "void (anonymous namespace)::resolve_future_token_ids_kernel<long>(long*, long*)") ==
        "resolve_future_token_ids_kernel");
  const std::string tensile =
      "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x32x256_MI16x16x1_SN_LDSB1_AFC1";
  const std::string shortened = loupe::short_kernel_name(tensile);
  CHECK(shortened.rfind("Cijk_Alik_Bljk_BBS_MT32x32x256~", 0) == 0);
  CHECK(shortened.size() == 35);
  // Solutions that differ after the macro tile keep distinct short names.
  CHECK(loupe::short_kernel_name(tensile + "_NTA4") != shortened);
  CHECK(loupe::short_kernel_name(std::string(100, 'k')).size() == 60);
  CHECK(loupe::short_kernel_name("_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1") ==
        "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1");
}

TEST_CASE("an eager decode step, a replay without caller and a launch without kernels",
          "[serving]") {
  // step[DECODE bs=4]: 25 kernels of 10 us launched one by one, 60 us apart; then a hipGraphLaunch
  // with no host op or Python frame above it (3 kernels, 100 us) and a cudaGraphLaunch whose
  // kernels the trace does not hold.
  const Json block =
      serving_block(loupe::test::bundled_data_dir() / "serving" / "eager_decode_and_graphs.json");
  const Json& step = at(block, "steps", 0);
  CHECK(text(step, "engine") == "SGLang");
  CHECK(text(step, "phase") == "decode");
  CHECK(num(step, "decode_requests") == 4);
  CHECK(step.find("decode_tokens")->is_null());
  CHECK(num(step, "gpu_ops") == 25);
  CHECK(num(step, "gpu_busy_ms") == 0.25);
  CHECK(num(step, "gpu_span_ms") == 1.45);
  CHECK(num(step, "gpu_idle_percent") == 82.76);
  CHECK(num(step, "eager_launches") == 25);
  CHECK(num(step, "graph_launches") == 0);
  const Json& phase = at(block, "phases", 0);
  CHECK(num(phase, "requests") == 4);
  CHECK(phase.find("tokens")->is_null());

  const Json& graphs = *block.find("graphs");
  CHECK(num(graphs, "launches") == 1);
  CHECK(num(graphs, "unattributed_kernels") == 3);
  CHECK(num(graphs, "unattributed_kernel_time_ms") == 0.1);
  CHECK(num(graphs, "launches_without_kernels") == 1);
  const Json& replay = at(block, "graph_replays", 0);
  CHECK(replay.find("caller")->is_null());
  CHECK(replay.find("step")->is_null());  // after the step ended
  CHECK(text(at(replay, "kernels", 0), "short_name") == "graph_gemm");
  CHECK(num(at(replay, "kernels", 0), "count") == 2);

  CHECK(finding_ids(block) == std::vector<std::string>{"serving-step1-idle", "serving-step1-eager",
                                                       "serving-graphs-unattributed",
                                                       "serving-graphs-without-kernels"});
  const Json& eager = at(block, "findings", 1);
  CHECK(text(eager, "action").find("--cuda-graph-max-bs") != std::string::npos);
  CHECK(text(at(block, "findings", 2), "insight").find("`graph_gemm`, `rmsnorm_kernel`") !=
        std::string::npos);

  const std::string md = loupe::core::serving_report_markdown(block);
  CHECK(md.find("| decode | 1 | 4 | \xE2\x80\x94 | 0.250 ms | 1.200 ms (82.8%) |") !=
        std::string::npos);
  CHECK(md.find("| (no caller in the trace) | \xE2\x80\x94 | 1 | 3 | 0.100 ms |") !=
        std::string::npos);
}

TEST_CASE("the SGLang decode step replays one graph and idles outside it", "[serving]") {
  const Json block =
      serving_block(loupe::test::bundled_data_dir() / "serving" / "sglang_Qwen3-8B_decode.json.gz");
  REQUIRE(block.find("steps")->size() == 1);
  const Json& step = at(block, "steps", 0);
  // SGLang writes its step[DECODE bs=32] inside the vLLM-style execute_ label.
  CHECK(text(step, "engine") == "SGLang");
  CHECK(block.find("steps")->as_array()[0].find("labels")->size() == 2);
  CHECK(text(step, "phase") == "decode");
  CHECK(num(step, "decode_requests") == 32);
  CHECK(num(step, "decode_tokens") == 32);
  CHECK(num(step, "gpu_busy_ms") == 9.773);
  CHECK(num(step, "gpu_span_ms") == 473.75);
  CHECK(num(step, "gpu_idle_ms") == 463.977);
  CHECK(num(step, "gpu_idle_percent") == 97.94);
  CHECK(num(step, "graph_launches") == 1);
  CHECK(num(step, "graph_kernel_time_ms") == 9.656);

  const Json& replay = at(block, "graph_replays", 0);
  CHECK(text(replay, "launch") == "hipGraphLaunch");
  CHECK(text(replay, "caller") ==
        "/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py(1333): "
        "replay");
  CHECK(num(replay, "kernel_count") == 544);
  CHECK(num(replay, "kernel_time_ms") == 9.656);
  CHECK(num(*block.find("graphs"), "unattributed_kernels") == 0);

  REQUIRE(finding_ids(block) == std::vector<std::string>{"serving-step1-idle"});
  const Json& idle = at(block, "findings", 0);
  CHECK(text(idle, "title") == "Decode step 1: GPU idle 97.9% of its span");
  CHECK(text(idle, "action").find("already replay from a GPU graph") != std::string::npos);
}

TEST_CASE("analyze --trace reports serving steps in default mode only", "[serving][cli]") {
  const fs::path trace =
      loupe::test::bundled_data_dir() / "serving" / "sglang_Qwen3-8B_decode.json.gz";
  loupe::test::TempDir out;
  const auto r = loupe::test::run_loupe(
      {"analyze", "--trace", trace.string(), "-o", (out.path() / "default").string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("decode: 1 step(s), 32 requests, 32 tokens, GPU busy 9.773 ms per step, idle "
                   "97.9%") != std::string::npos);
  CHECK(r.out.find("GPU graphs: 1 launch(es), 9.656 ms of replayed kernels, all attributed") !=
        std::string::npos);
  const std::string md = loupe::test::read_text(out.path() / "default" / "analysis.md");
  CHECK(md.find("## Serving Steps and GPU Graphs") != std::string::npos);
  CHECK(md.find("`/sgl-workspace/sglang/python/sglang/srt/model_executor/cuda_graph_runner.py"
                "(1333): replay` | step 1 | 1 | 544 | 9.656 ms |") != std::string::npos);
  const std::string findings = loupe::test::read_text(out.path() / "default" / "findings.json");
  CHECK(findings.find("\"serving\"") != std::string::npos);
  const auto v =
      loupe::test::run_loupe({"validate", "--report", (out.path() / "default").string()});
  CHECK(v.exit_code == 0);

  const auto c = loupe::test::run_loupe({"analyze", "--quiet", "--compat", "tracelens", "--trace",
                                         trace.string(), "-o", (out.path() / "compat").string()});
  REQUIRE(c.exit_code == 0);
  CHECK(c.out.find("Serving steps") == std::string::npos);
  CHECK(loupe::test::read_text(out.path() / "compat" / "analysis.md").find("## Serving Steps") ==
        std::string::npos);
  CHECK(loupe::test::read_text(out.path() / "compat" / "findings.json").find("\"serving\"") ==
        std::string::npos);
}

TEST_CASE("the four serving-engine traces of the pack: phases and graph replays",
          "[serving][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const fs::path dir = shared / "data" / "traces" / "inference";
  struct Expected {
    const char* trace;
    const char* engine;
    const char* phase;
    double busy_ms, span_ms, idle_percent;
    double launches, replayed_kernels, graph_ms;
    std::vector<std::string> findings;
  };
  const std::vector<Expected> runs = {
      {"sglang_decode/sglang_Qwen3-8B_decode.json.gz",
       "SGLang",
       "decode",
       9.773,
       473.75,
       97.94,
       1,
       544,
       9.656,
       {"serving-step1-idle"}},
      {"vllm_decode_full/graph_execution.json.gz",
       "vLLM",
       "decode",
       10.718,
       10.743,
       0.24,
       1,
       421,
       10.388,
       {}},
      {"vllm_prefilldecode_piecewise/graph_execution.json.gz",
       "vLLM",
       "mixed",
       156.086,
       156.466,
       0.24,
       25,
       361,
       149.92,
       {}},
      {"xdit_flux.1_aiter_sage/profile_trace_rank_0.json.gz",
       "xDiT",
       "diffusion",
       201.352,
       226.596,
       11.14,
       4,
       6264,
       170.998,
       {"serving-step1-pieces"}},
  };
  std::size_t checked = 0;
  for (const auto& e : runs) {
    INFO(e.trace);
    const Json block = serving_block(dir / e.trace);
    REQUIRE(block.find("steps")->size() == 1);
    const Json& step = at(block, "steps", 0);
    CHECK(text(step, "engine") == e.engine);
    CHECK(text(step, "phase") == e.phase);
    CHECK(num(step, "gpu_busy_ms") == Approx(e.busy_ms).margin(1e-9));
    CHECK(num(step, "gpu_span_ms") == Approx(e.span_ms).margin(1e-9));
    CHECK(num(step, "gpu_idle_percent") == Approx(e.idle_percent).margin(1e-9));
    const Json& graphs = *block.find("graphs");
    CHECK(num(graphs, "launches") == e.launches);
    CHECK(num(graphs, "kernel_time_ms") == Approx(e.graph_ms).margin(1e-9));
    CHECK(num(graphs, "unattributed_kernels") == 0);
    double kernels = 0;
    for (const auto& r : block.find("graph_replays")->as_array()) {
      kernels += num(r, "kernel_count");
      CHECK_FALSE(r.find("caller")->is_null());
    }
    CHECK(kernels == e.replayed_kernels);
    CHECK(finding_ids(block) == e.findings);
    ++checked;
  }
  // The mixed vLLM step: 9 prefill requests (8155 tokens) beside 37 decode requests.
  const Json mixed = serving_block(dir / runs[2].trace);
  CHECK(num(at(mixed, "steps", 0), "prefill_requests") == 9);
  CHECK(num(at(mixed, "steps", 0), "prefill_tokens") == 8155);
  CHECK(num(at(mixed, "steps", 0), "decode_requests") == 37);
  CHECK(checked == 4);  // minimum-count guard: every serving trace of the pack was read
}

TEST_CASE("an eagerly launched decode step is launch-bound for cpu_idle", "[serving][cli]") {
  // The 24 gaps of 50 us between the step's 25 kernels: each next kernel is launched 40 us after
  // the GPU went idle and starts 10 us after its launch call.
  const fs::path trace =
      loupe::test::bundled_data_dir() / "serving" / "eager_decode_and_graphs.json";
  loupe::test::TempDir out;
  const auto r =
      loupe::test::run_loupe({"analyze", "--trace", trace.string(), "-o", out.path().string()});
  REQUIRE(r.exit_code == 0);
  CHECK(r.out.find("finding: Decode step 1: 25 launches without a GPU graph") != std::string::npos);
  CHECK(r.out.find(
            "P1  1.320 ms (60.00%) measured\tcpu_idle\tKernel launch overhead leaves the GPU idle "
            "between kernels") != std::string::npos);
  rapidjson::Document m;
  m.Parse(loupe::test::read_text(out.path() / "category_data" / "cpu_idle_metrics.json").c_str());
  REQUIRE(m.IsObject());
  const auto& causes = m["idle_breakdown"]["by_cause"];
  CHECK(causes["launch_bound_ms"].GetDouble() == Approx(1.76).margin(1e-9));
  CHECK(causes["synchronization_ms"].GetDouble() == 0.0);
  const auto v = loupe::test::run_loupe({"validate", "--report", out.path().string()});
  CHECK(v.exit_code == 0);
}

TEST_CASE("phases sum their steps: a prefill step and two decode steps", "[serving]") {
  // vLLM native labels; each step launches one kernel (linked by an ac2g flow).
  std::string events;
  const auto step = [&](const std::string& label, int ts, int id, int kernel_us) {
    const std::string t = std::to_string(ts), k = std::to_string(ts + 10), c = std::to_string(id);
    events += R"({"ph":"X","cat":"user_annotation","name":")" + label +
              R"(","pid":1,"tid":1,"ts":)" + t + R"(,"dur":100},)";
    events += R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
              std::to_string(ts + 1) + R"(,"dur":2,"args":{"correlation":)" + c + "}},";
    events += R"({"ph":"s","id":)" + c + R"(,"pid":1,"tid":1,"ts":)" + std::to_string(ts + 1) +
              R"(,"cat":"ac2g","name":"ac2g"},)";
    events += R"({"ph":"f","id":)" + c + R"(,"pid":0,"tid":7,"ts":)" + k +
              R"(,"cat":"ac2g","name":"ac2g","bp":"e"},)";
    events += R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":)" + k + R"(,"dur":)" +
              std::to_string(kernel_us) + R"(,"args":{"correlation":)" + c + R"(,"stream":7}},)";
  };
  step("execute_context_2(900)_generation_0(0)", 0, 1, 50);
  step("execute_context_0(0)_generation_8(8)", 200, 2, 20);
  step("execute_context_0(0)_generation_8(8)", 400, 3, 30);
  events.pop_back();
  auto loaded = lt::load_trace_bytes(R"({"traceEvents":[)" + events + "]}");
  REQUIRE_FALSE(loaded.error.has_value());
  const auto tree = lt::EventTree::build(loaded.model, lp::prepare_tree_options());
  const Json doc = lp::serving_summary_json(lp::build_serving_summary(loaded.model, tree));
  REQUIRE(doc.find("steps")->size() == 3);
  REQUIRE(doc.find("phases")->size() == 2);
  const Json& prefill = at(doc, "phases", 0);
  CHECK(text(prefill, "phase") == "prefill");
  CHECK(num(prefill, "steps") == 1);
  CHECK(num(prefill, "requests") == 2);
  CHECK(num(prefill, "tokens") == 900);
  CHECK(num(prefill, "gpu_busy_ms_per_step") == 0.05);
  const Json& decode = at(doc, "phases", 1);
  CHECK(text(decode, "phase") == "decode");
  CHECK(num(decode, "steps") == 2);
  CHECK(num(decode, "requests") == 16);
  CHECK(num(decode, "tokens") == 16);
  CHECK(num(decode, "gpu_busy_ms") == 0.05);
  CHECK(num(decode, "gpu_busy_ms_per_step") == 0.025);
  CHECK(num(decode, "gpu_idle_ms") == 0.0);
  CHECK(doc.find("graph_replays")->size() == 0);
}

namespace {

// One step of a serving summary as serving_summary_json writes it: 10 ms span, 40 % idle, all
// kernels launched eagerly (30 launches).
Json summary_with_step(const std::string& engine, const std::string& phase,
                       std::optional<double> decode_requests) {
  Json step = Json::object();
  step["label"] = "step[" + phase + "]";
  step["engine"] = engine;
  step["phase"] = phase;
  step["decode_requests"] = decode_requests ? Json(*decode_requests) : Json();
  step["gpu_busy_ms"] = 6.0;
  step["gpu_span_ms"] = 10.0;
  step["gpu_idle_ms"] = 4.0;
  step["gpu_idle_percent"] = 40.0;
  step["kernel_time_ms"] = 6.0;
  step["graph_kernel_time_ms"] = 0.0;
  step["graph_launches"] = 0;
  step["eager_launches"] = 30;
  Json steps = Json::array();
  steps.push_back(std::move(step));
  Json summary = Json::object();
  summary["steps"] = std::move(steps);
  return summary;
}

std::string actions_of(const Json& block) {
  std::string all;
  for (const auto& f : block.find("findings")->as_array()) all += text(f, "action") + "\n";
  return all;
}

}  // namespace

TEST_CASE("serving-step actions are keyed to the step's phase and batch size", "[serving]") {
  // Fires: an SGLang decode step with a known batch size gets the batch-size switch, naming it.
  const Json decode =
      loupe::core::serving_report_block(summary_with_step("SGLang", "decode", 48.0));
  CHECK(finding_ids(decode) ==
        std::vector<std::string>{"serving-step1-idle", "serving-step1-eager"});
  CHECK(actions_of(decode).find("raise `--cuda-graph-max-bs`") != std::string::npos);
  CHECK(actions_of(decode).find("the batch size (48)") != std::string::npos);

  // Must not: a prefill step is not told to raise the decode-graph batch size.
  const Json prefill =
      loupe::core::serving_report_block(summary_with_step("SGLang", "prefill", std::nullopt));
  CHECK(finding_ids(prefill) == std::vector<std::string>{"serving-step1-idle"});
  CHECK(actions_of(prefill).find("cuda-graph") == std::string::npos);
  CHECK(actions_of(prefill).find("cpu_idle_findings.md") != std::string::npos);
  const Json mixed = loupe::core::serving_report_block(summary_with_step("vLLM", "mixed", 12.0));
  CHECK(actions_of(mixed).find("cudagraph_capture_sizes") == std::string::npos);

  // Must not: a decode step whose label gives no batch size (or 0) is not quoted "(0)".
  for (const std::optional<double> bs : {std::optional<double>(0.0), std::optional<double>()}) {
    const Json unknown =
        loupe::core::serving_report_block(summary_with_step("SGLang", "decode", bs));
    const std::string actions = actions_of(unknown);
    CHECK(actions.find("(0)") == std::string::npos);
    CHECK(actions.find("raise `--cuda-graph-max-bs`") == std::string::npos);
    CHECK(actions.find("does not give it") != std::string::npos);
  }

  // Must not: a diffusion step is not a decode step.
  const Json diffusion =
      loupe::core::serving_report_block(summary_with_step("xDiT", "diffusion", std::nullopt));
  CHECK(actions_of(diffusion).find("decode") == std::string::npos);
  CHECK(actions_of(diffusion).find("denoising step") != std::string::npos);
}

TEST_CASE("graph pieces: eager attention kernels carry their kernel family", "[serving]") {
  Json summary = summary_with_step("vLLM", "mixed", 37.0);
  Json step = summary.find("steps")->as_array()[0];
  step["graph_launches"] = 25;
  step["graph_kernel_time_ms"] = 5.0;  // 1 of 6 ms eager: above the 10 % threshold
  Json kernels = Json::array();
  for (const auto& [name, short_name, time] :
       {std::tuple{"kernel_unified_attention_2d", "kernel_unified_attention_2d", 0.6},
        std::tuple{"void vllm::reshape_and_cache_flash_kernel<__hip_bfloat16>(long)",
                   "vllm::reshape_and_cache_flash_kernel", 0.3}}) {
    Json k = Json::object();
    k["name"] = name;
    k["short_name"] = short_name;
    k["time_ms"] = time;
    kernels.push_back(std::move(k));
  }
  step["eager_kernels"] = std::move(kernels);
  Json steps = Json::array();
  steps.push_back(std::move(step));
  summary["steps"] = std::move(steps);
  const Json block = loupe::core::serving_report_block(summary);
  const Json* pieces = nullptr;
  for (const auto& f : block.find("findings")->as_array()) {
    if (text(f, "rule") == "graph_pieces") pieces = &f;
  }
  REQUIRE(pieces != nullptr);
  const std::string insight = text(*pieces, "insight");
  // Fires on the attention kernel, not on the KV-cache write.
  CHECK(insight.find("`kernel_unified_attention_2d` 0.600 ms (Triton fused paged attention)") !=
        std::string::npos);
  CHECK(insight.find("`vllm::reshape_and_cache_flash_kernel` 0.300 ms.") != std::string::npos);
}
