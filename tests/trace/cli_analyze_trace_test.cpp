// `loupe analyze --trace`: a raw trace to a prepared analysis directory and the analyzers'
// outputs, plus clean usage and input errors (exit 2, nothing half-written).
#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "schema_check.hpp"
#include "test_paths.hpp"
#include "trace_text.hpp"

namespace fs = std::filesystem;
using loupe::test::run_loupe;

namespace {

rapidjson::Document parse_file(const fs::path& path) {
  rapidjson::Document d;
  d.Parse(loupe::test::read_text(path).c_str());
  REQUIRE_FALSE(d.HasParseError());
  return d;
}

}  // namespace

TEST_CASE("loupe analyze --trace prepares the directory and analyzes it", "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json.gz";
  loupe::test::write_text(trace, loupe::test::trace::gzip(loupe::test::trace::small_trace()));
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("platform MI300X (the trace names no device"));
  for (const char* rel :
       {"perf_report_csvs/gpu_timeline.csv", "category_data/category_manifest.json",
        "perf_report_csvs/ops_summary.csv", "perf_report_csvs/ops_summary_by_category.csv",
        "perf_report_csvs/ops_unique_args.csv", "perf_report_csvs/unified_perf_summary.csv",
        "category_data/multi_kernel_data.json", "category_data/fusion_candidates.json",
        "category_data/cpu_idle_ops.csv", "category_data/other_ops.csv",
        "metadata/cpu_idle_metadata.json", "metadata/other_metadata.json",
        "metadata/model_info.json", "loupe_run.json"}) {
    INFO(rel);
    CHECK(fs::is_regular_file(out / rel));
  }
  const auto manifest = parse_file(out / "category_data/category_manifest.json");
  CHECK(std::string(manifest["platform"].GetString()) == "MI300X");
  CHECK(manifest["gpu_utilization"]["total_time_ms"].GetDouble() == 0.02);
  CHECK(manifest["gpu_utilization"]["computation_time_percent"].GetDouble() == 100.0);
  // One unmodeled op (aten::relu: category "other") with one 20 us kernel, no copies, no
  // collectives, no fusion candidate: cpu_idle and other are listed.
  REQUIRE(manifest["categories"].Size() == 2);
  CHECK(std::string(manifest["categories"][0]["name"].GetString()) == "cpu_idle");
  const auto& other = manifest["categories"][1];
  CHECK(std::string(other["name"].GetString()) == "other");
  CHECK(other["ops_count"].GetInt() == 1);
  CHECK(other["gpu_kernel_time_ms"].GetDouble() == 0.02);
  CHECK(other["cpu_duration_ms"].GetDouble() == 0.05);
  const std::string unified =
      loupe::test::read_text(out / "perf_report_csvs/unified_perf_summary.csv");
  CHECK_THAT(unified, Catch::StartsWith("name,op category,") &&
                          Catch::Contains("aten::relu,other,") &&
                          Catch::Contains("'name': 'relu_kernel', 'stream': 7, 'count': 1"));
  const auto meta = parse_file(out / "metadata/cpu_idle_metadata.json");
  CHECK(meta["peak_hbm_bw_tbs"].GetDouble() == 5.3);
  CHECK(std::string(meta["trace_path"].GetString()) == fs::absolute(trace).lexically_normal());
}

TEST_CASE("a GPU-graph launch whose kernels the trace lacks is analyzed and named as missing",
          "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "graph.json";
  // small_trace plus a graph replay whose kernels the profiler did not record.
  std::string events = loupe::test::trace::small_trace();
  const std::string graph =
      R"({"ph":"X","cat":"cuda_runtime","name":"hipGraphLaunch","pid":100,"tid":100,"ts":30,"dur":8,"args":{"correlation":2}},)";
  events.insert(events.find("{\"ph\""), graph);
  loupe::test::write_text(trace, events);
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string()});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);  // the rest of the trace is analyzed
  CHECK_THAT(r.err, Catch::Contains("1 GPU-graph launch(es) (cudaGraphLaunch/hipGraphLaunch) have "
                                    "no replayed kernels in the trace"));
  CHECK(fs::is_regular_file(out / "category_data/other_metrics.json"));
  const auto inspect = run_loupe({"inspect", trace.string()});
  REQUIRE(inspect.exit_code == 0);
  CHECK_THAT(inspect.out, Catch::Contains("1 GPU-graph launch(es) with no replayed kernels"));
  const auto json = run_loupe({"inspect", trace.string(), "--json"});
  CHECK_THAT(json.out, Catch::Contains("\"graph_launches_without_kernels\":1"));
}

TEST_CASE("loupe analyze --trace picks the platform", "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json";
  loupe::test::write_text(trace, loupe::test::trace::small_trace());
  const auto forced = run_loupe({"analyze", "--trace", trace.string(), "-o",
                                 (tmp.path() / "a").string(), "--platform", "H100"});
  REQUIRE(forced.exit_code == 0);
  const auto meta = parse_file(tmp.path() / "a/metadata/cpu_idle_metadata.json");
  CHECK(std::string(meta["platform"].GetString()) == "H100");
  CHECK(meta["peak_hbm_bw_tbs"].GetDouble() == 3.35);
  CHECK(meta["max_achievable_tflops"]["matrix_bf16"].GetInt() == 989);

  const fs::path arch = tmp.path() / "lab.json";
  loupe::test::write_text(arch, R"({"name": "LabGPU", "mem_bw_gbps": 1000, "memory_gb": 16,
      "max_achievable_tflops": {"matrix_bf16": 100}})");
  const auto custom = run_loupe({"analyze", "--trace", trace.string(), "-o",
                                 (tmp.path() / "b").string(), "--arch", arch.string()});
  REQUIRE(custom.exit_code == 0);
  const auto manifest = parse_file(tmp.path() / "b/category_data/category_manifest.json");
  CHECK(std::string(manifest["platform"].GetString()) == "LabGPU");
}

TEST_CASE("loupe analyze --trace usage and input errors", "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json";
  loupe::test::write_text(trace, loupe::test::trace::small_trace());
  const std::string out = (tmp.path() / "out").string();

  const auto no_out = run_loupe({"analyze", "--trace", trace.string()});
  CHECK(no_out.exit_code == 2);
  CHECK_THAT(no_out.err, Catch::Contains("--trace needs -o OUT"));
  CHECK(run_loupe({"analyze", out, "--trace", trace.string(), "-o", out}).exit_code == 2);
  CHECK(run_loupe({"analyze", out, "--platform", "H100"}).exit_code == 2);

  const auto bad_platform =
      run_loupe({"analyze", "--trace", trace.string(), "-o", out, "--platform", "A100"});
  CHECK(bad_platform.exit_code == 2);
  CHECK_THAT(bad_platform.err, Catch::Contains("unknown platform 'A100'"));

  const fs::path bad_arch = tmp.path() / "arch.json";
  loupe::test::write_text(bad_arch, R"({"mem_bw_gbps": "fast"})");
  const auto arch =
      run_loupe({"analyze", "--trace", trace.string(), "-o", out, "--arch", bad_arch.string()});
  CHECK(arch.exit_code == 2);
  CHECK_THAT(arch.err, Catch::Contains(bad_arch.string()) && Catch::Contains("mem_bw_gbps"));
  // The optional host link must be a positive number when given.
  loupe::test::write_text(bad_arch, R"({"mem_bw_gbps": 3350, "max_achievable_tflops": )"
                                    R"({"matrix_bf16": 989}, "host_link_gbps": 0})");
  const auto link =
      run_loupe({"analyze", "--trace", trace.string(), "-o", out, "--arch", bad_arch.string()});
  CHECK(link.exit_code == 2);
  CHECK_THAT(link.err, Catch::Contains("host_link_gbps must be a positive number"));

  const fs::path cut = tmp.path() / "cut.json";
  loupe::test::write_text(cut, loupe::test::trace::small_trace().substr(0, 200));
  const auto truncated = run_loupe({"analyze", "--trace", cut.string(), "-o", out});
  CHECK(truncated.exit_code == 2);
  CHECK_THAT(truncated.err, Catch::Contains("byte 200"));

  const fs::path cpu_only = tmp.path() / "cpu_only.json";
  loupe::test::write_text(cpu_only, loupe::test::trace::wrap_events(
                                        R"({"ph": "X", "cat": "cpu_op", "name": "aten::mm",
                                            "pid": 1, "tid": 1, "ts": 1, "dur": 5})"));
  const auto no_gpu = run_loupe({"analyze", "--trace", cpu_only.string(), "-o", out});
  CHECK(no_gpu.exit_code == 2);
  CHECK_THAT(no_gpu.err, Catch::Contains("no GPU event"));
  CHECK_FALSE(fs::exists(out));  // nothing was written for the failed runs
}

TEST_CASE("other profilers' files are refused by name before any work; a BOM is skipped",
          "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json";
  loupe::test::write_text(trace, loupe::test::trace::small_trace());
  const std::string out = (tmp.path() / "out").string();
  struct Case {
    std::string file;
    std::string bytes;
    std::string named;
  };
  std::string sqlite("SQLite format 3\0", 16);
  sqlite.resize(100, '\0');
  const std::vector<Case> cases = {
      // An XSpace: one plane named /host:CPU (field 1, then the plane's id and name).
      {"jax.xplane.pb", std::string("\x0a\x0d\x08\x01\x12\x09/host:CPU", 15), "XSpace"},
      {"report.nsys-rep", std::string("\x00\x01\x02\x03\xff", 5), "Nsight Systems report"},
      {"report.sqlite", sqlite + "CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL(x)",
       "Nsight Systems SQLite"},
      {"results.db", sqlite + "CREATE TABLE rocpd_kernel_dispatch(x)", "rocpd"},
      {"kernel_trace.csv", "\"Kind\",\"Kernel_Name\",\"Correlation_Id\"\n\"K\",\"k\",1\n",
       "rocprofv3 CSV"},
      {"results.json", R"({"rocprofiler-sdk-tool": []})", "rocprofv3 JSON"},
      {"config.json", R"({"model": "x", "layers": 2})", "without traceEvents"},
      {"config.json.gz", loupe::test::trace::gzip(R"({"model": "x"})"), "without traceEvents"},
  };
  for (const auto& c : cases) {
    const fs::path file = tmp.path() / c.file;
    loupe::test::write_text(file, c.bytes);
    for (const char* option : {"--trace", "--trace2"}) {
      const auto r = std::string(option) == "--trace"
                         ? run_loupe({"analyze", "--trace", file.string(), "-o", out})
                         : run_loupe({"analyze", "--trace", trace.string(), "--trace2",
                                      file.string(), "-o", out});
      INFO(c.file << " " << option << ": " << r.err);
      CHECK(r.exit_code == 2);
      CHECK_THAT(
          r.err,
          Catch::StartsWith(std::string("loupe analyze: ") + option + " " + file.string() + ": ") &&
              Catch::Contains(c.named) && Catch::Contains("not a PyTorch profiler trace"));
      CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);  // one line
    }
    const auto inspect = run_loupe({"inspect", file.string()});
    CHECK(inspect.exit_code == 2);
    CHECK_THAT(inspect.err, Catch::Contains(c.named));
  }
  CHECK_FALSE(fs::exists(out));

  const fs::path bom = tmp.path() / "bom.json.gz";
  loupe::test::write_text(
      bom, loupe::test::trace::gzip("\xEF\xBB\xBF" + loupe::test::trace::small_trace()));
  const auto r = run_loupe({"inspect", bom.string()});
  CHECK(r.exit_code == 0);
  CHECK_THAT(r.out, Catch::Contains("1 of 1 GPU ops linked"));
}

TEST_CASE("loupe analyze --trace on a real trace reproduces TraceLens's multi-kernel metrics",
          "[trace][cli][reference][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  loupe::test::TempDir tmp;
  const fs::path trace = shared / "data/traces/mi300/resnet_act_checkpoint.json.gz";
  const fs::path reference = shared / "data/reference/mi300_resnet_act_checkpoint";
  const auto r =
      run_loupe({"analyze", "--trace", trace.string(), "-o", tmp.path().string(), "--platform",
                 "MI300X", "--compat", "tracelens", "--only", "multi_kernel"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  for (const char* rel :
       {"perf_report_csvs/gpu_timeline.csv", "category_data/multi_kernel_data.json",
        "category_data/multi_kernel_metrics.json"}) {
    INFO(rel);
    CHECK(loupe::test::read_text(tmp.path() / rel) == loupe::test::read_text(reference / rel));
  }
}

TEST_CASE("loupe analyze --trace on the bundled sample reproduces TraceLens's directory",
          "[trace][cli]") {
  // Runs on a fresh clone: tests/data/samples holds the raw trace and TraceLens's outputs.
  const fs::path samples = loupe::test::bundled_data_dir() / "samples";
  const fs::path trace = samples / "mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  const fs::path reference = samples / "mi300_qwen";
  loupe::test::TempDir tmp;
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", tmp.path().string(),
                            "--compat", "tracelens", "--platform", "MI300X", "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string recorded_trace = fs::absolute(trace).lexically_normal().string();
  const std::string recorded_out = fs::absolute(tmp.path()).lexically_normal().string();
  std::size_t compared = 0;
  for (const char* sub : {"perf_report_csvs", "category_data", "metadata"}) {
    for (const auto& entry : fs::directory_iterator(reference / sub)) {
      const std::string rel = std::string(sub) + "/" + entry.path().filename().string();
      INFO("file " << rel);
      REQUIRE(fs::exists(tmp.path() / rel));
      std::string ours = loupe::test::read_text(tmp.path() / rel);
      for (const auto& [from, to] :
           {std::pair<std::string, std::string>{
                recorded_trace, "<traces>/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz"},
            {recorded_out, "<output_dir>"}}) {
        for (auto pos = ours.find(from); pos != std::string::npos; pos = ours.find(from, pos)) {
          ours.replace(pos, from.size(), to);
        }
      }
      CHECK(ours == loupe::test::read_text(entry.path()));
      ++compared;
    }
  }
  // priority_data.json, ranked from every category's metrics, is byte-identical too.
  CHECK(loupe::test::read_text(tmp.path() / "priority_data.json") ==
        loupe::test::read_text(reference / "priority_data.json"));
  // 10 perf report tables, 16 category_data files (7 categories' metrics), 8 metadata files
  CHECK(compared == 34);
}

TEST_CASE("findings.json ranks every finding of the run with stable ids and ms savings",
          "[trace][cli][report]") {
  const fs::path trace =
      loupe::test::bundled_data_dir() / "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  loupe::test::TempDir first, second;
  for (const auto* out : {&first, &second}) {
    const auto r = run_loupe(
        {"analyze", "--trace", trace.string(), "-o", out->path().string(), "--platform", "MI300X"});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    // The summary ends with the ranked answer.
    CHECK_THAT(r.out,
               Catch::Contains("Top findings (estimated saving of each, in ms of the run's ") &&
                   Catch::Contains("\n  P1  ") && Catch::Contains("more in findings.json"));
  }
  // -q: no summary at all.
  loupe::test::TempDir quiet;
  const auto q = run_loupe({"analyze", "--trace", trace.string(), "-o", quiet.path().string(),
                            "--platform", "MI300X", "-q"});
  REQUIRE(q.exit_code == 0);
  CHECK(q.out.empty());
  auto doc = std::make_unique<rapidjson::Document>();
  doc->Parse(loupe::test::read_text(first.path() / "findings.json").c_str());
  REQUIRE(doc->IsObject());
  CHECK(std::string((*doc)["schema"].GetString()) == "loupe.run_findings/2");
  const double baseline = (*doc)["run"]["total_time_ms"].GetDouble();
  CHECK(baseline > 30.0);  // the sample's GPU time span (33.131 ms in TraceLens's manifest)
  const auto& findings = (*doc)["findings"];
  REQUIRE(findings.IsArray());
  REQUIRE(findings.Size() >= 3);
  std::set<std::string> ids;
  double ranked = 0.0;
  for (rapidjson::SizeType i = 0; i < findings.Size(); ++i) {
    const auto& f = findings[i];
    INFO("finding " << i << " " << f["title"].GetString());
    CHECK(f["priority"].GetInt64() == static_cast<std::int64_t>(i) + 1);
    const std::string id = f["id"].GetString();
    CHECK(ids.insert(id).second);  // no two findings of a run share an id
    CHECK(id.rfind(std::string(f["category"].GetString()) + "-", 0) == 0);
    CHECK_FALSE(std::string(f["action"].GetString()).empty());
    if (f["saving_ms"]["mid"].IsNumber()) {
      const double mid = f["saving_ms"]["mid"].GetDouble();
      // The percentage is the stored ms over the run's time (one number, one rounding).
      CHECK(f["saving_percent_of_e2e"]["mid"].GetDouble() ==
            Approx(mid / baseline * 100.0).margin(0.006));
      ranked += mid;
    }
  }
  CHECK(ranked <= baseline);  // the ranked savings add up to no more than the run's time
  CHECK((*doc)["ledger"]["ranked_saving_ms"]["mid"].GetDouble() == Approx(ranked).margin(0.01));
  // The document conforms to the shipped schema (docs/schemas/run_findings.schema.json).
  rapidjson::Document schema;
  schema.Parse(loupe::test::read_text(loupe::test::bundled_data_dir().parent_path().parent_path() /
                                      "docs/schemas/run_findings.schema.json")
                   .c_str());
  REQUIRE(schema.IsObject());
  const auto& required = schema["properties"]["findings"]["items"]["required"];
  REQUIRE(required.Size() >= 15);
  const auto problems = loupe::test::schema_problems(schema, *doc);
  INFO(problems.size() << " problems, first: " << (problems.empty() ? "" : problems.front()));
  CHECK(problems.empty());
  // The check can fail: a finding without its id and with a text priority breaks the schema.
  rapidjson::Document broken;
  broken.CopyFrom(*doc, broken.GetAllocator());
  broken["findings"][0].RemoveMember("id");
  broken["findings"][0]["priority"].SetString("first");
  CHECK(loupe::test::schema_problems(schema, broken).size() == 2);
  // The same workload keeps its ids from one run to the next.
  auto again = std::make_unique<rapidjson::Document>();
  again->Parse(loupe::test::read_text(second.path() / "findings.json").c_str());
  REQUIRE((*again)["findings"].Size() == findings.Size());
  for (rapidjson::SizeType i = 0; i < findings.Size(); ++i) {
    CHECK(std::string((*again)["findings"][i]["id"].GetString()) == findings[i]["id"].GetString());
  }
}

TEST_CASE("GPU work launched before recording is reported outside the analysis window",
          "[trace][cli][window]") {
  // Two kernels queued before the profiler recorded the host (correlations 1 and 2, no launch;
  // the host sits in a device synchronize meanwhile), then a recorded aten::relu launching
  // correlation 5.
  std::string events =
      R"({"ph":"X","cat":"kernel","name":"pre_a","pid":0,"tid":7,"ts":0,"dur":40,"args":{"correlation":1,"stream":7,"device":0}},)"
      R"({"ph":"X","cat":"kernel","name":"pre_b","pid":0,"tid":7,"ts":42,"dur":40,"args":{"correlation":2,"stream":7,"device":0}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaDeviceSynchronize","pid":100,"tid":100,"ts":0,"dur":85},)"
      R"({"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":110,"dur":5,"args":{"correlation":5,"External id":1}},)"
      R"({"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":160,"dur":20,"args":{"correlation":5,"stream":7,"device":0}},)"
      R"({"ph":"s","id":5,"pid":100,"tid":100,"ts":110,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":5,"pid":0,"tid":7,"ts":160,"cat":"ac2g","name":"ac2g","bp":"e"})";
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "pre_window.json";
  loupe::test::write_text(trace, loupe::test::trace::wrap_events(events));
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);

  const auto findings = parse_file(out / "findings.json");
  REQUIRE(findings.HasMember("recording"));
  const auto& rec = findings["recording"];
  CHECK(rec["window"]["start_ns"].GetInt64() == 160'000);
  CHECK(rec["window"]["end_ns"].GetInt64() == 180'000);
  CHECK(rec["window"]["duration_ms"].GetDouble() == 0.02);
  CHECK(rec["window"]["gpu_ops"].GetInt64() == 1);
  CHECK(rec["before"]["ops"].GetInt64() == 2);
  CHECK(rec["before"]["busy_ms"].GetDouble() == 0.08);
  CHECK(rec["before"]["span_ms"].GetDouble() == 0.16);
  CHECK(rec["before"]["launched_before_first_recorded_launch"].GetInt64() == 2);
  CHECK(rec["after"]["ops"].GetInt64() == 0);
  CHECK(rec["ops_at_trace_start"].GetInt64() == 1);
  CHECK(rec["outside_ms"].GetDouble() == 0.16);
  // No backward op and no serving label: an inference step, with the workload's evidence.
  CHECK(std::string(rec["trace_kind"]["kind"].GetString()) == "inference_step");
  CHECK_THAT(rec["trace_kind"]["evidence"].GetString(), Catch::Contains("inference workload"));

  const auto run = parse_file(out / "loupe_run.json");
  REQUIRE(run.HasMember("window"));
  CHECK(run["window"]["before"]["ops"].GetInt64() == 2);
  CHECK(run["window"]["start_ns"].GetInt64() == 160'000);

  // One window: gpu_timeline.csv and cpu_idle's breakdown state the same 0.02 ms.
  const auto metrics = parse_file(out / "category_data/cpu_idle_metrics.json");
  CHECK(metrics["idle_breakdown"]["gpu_span_ms"].GetDouble() == 0.02);
  CHECK(metrics["gpu_utilization"]["total_time_ms"].GetDouble() == 0.02);
  CHECK(metrics["idle_breakdown"]["by_cause"]["synchronization_ms"].GetDouble() == 0.0);
  CHECK(metrics["idle_breakdown"]["outside_window"]["before"]["ops"].GetInt64() == 2);

  const std::string md = loupe::test::read_text(out / "analysis.md");
  CHECK_THAT(md, Catch::Contains("**Trace kind**: inference_step") &&
                     Catch::Contains("## Recording Window") &&
                     Catch::Contains("The analysis window is 0.020 ms (1 GPU ops)") &&
                     Catch::Contains("| Before the window | 2 | 0.080 | 0.160 | 2 |"));
  CHECK(run_loupe({"validate", "--report", out.string()}).exit_code == 0);
  CHECK_THAT(loupe::test::read_text(out / "report.html"),
             Catch::Contains("<section id=\"recording\"><h2>Recording Window</h2>"));

  // Compat mode keeps TraceLens's files: no recording block or section.
  const fs::path compat = tmp.path() / "compat";
  REQUIRE(run_loupe({"analyze", "--trace", trace.string(), "-o", compat.string(), "--compat",
                     "tracelens", "-q"})
              .exit_code == 0);
  CHECK_FALSE(parse_file(compat / "findings.json").HasMember("recording"));
  CHECK_THAT(loupe::test::read_text(compat / "analysis.md"), !Catch::Contains("Recording Window"));
}

TEST_CASE("a GPU-graph capture trace is reported as a capture", "[trace][cli][window]") {
  // One eager fill kernel, then a stream capture: a launch recorded into the graph (no kernel
  // runs), the end of the capture and the graph's instantiation; no graph launch.
  const std::string events =
      R"({"ph":"X","cat":"cpu_op","name":"aten::fill_","pid":100,"tid":100,"ts":0,"dur":20,"args":{"External id":1}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":100,"tid":100,"ts":5,"dur":5,"args":{"correlation":1,"External id":1}},)"
      R"({"ph":"X","cat":"kernel","name":"fill_kernel","pid":0,"tid":7,"ts":30,"dur":4,"args":{"correlation":1,"stream":7,"device":0}},)"
      R"({"ph":"s","id":1,"pid":100,"tid":100,"ts":5,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":1,"pid":0,"tid":7,"ts":30,"cat":"ac2g","name":"ac2g","bp":"e"},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"hipStreamBeginCapture","pid":100,"tid":100,"ts":100,"dur":10},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"hipLaunchKernel","pid":100,"tid":100,"ts":120,"dur":5,"args":{"correlation":2}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"hipStreamEndCapture","pid":100,"tid":100,"ts":200,"dur":10},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"hipGraphInstantiateWithFlags","pid":100,"tid":100,"ts":220,"dur":1880})";
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "capture.json";
  loupe::test::write_text(trace, loupe::test::trace::wrap_events(events));
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto findings = parse_file(out / "findings.json");
  const auto& kind = findings["recording"]["trace_kind"];
  CHECK(std::string(kind["kind"].GetString()) == "graph_capture");
  CHECK_THAT(kind["evidence"].GetString(),
             Catch::Contains("1 stream-capture begin call(s) and 1 graph instantiation(s), no "
                             "graph launch; the captures took 2.000 ms"));
  CHECK(kind["capture_ms"].GetDouble() == 2.0);
  CHECK_THAT(loupe::test::read_text(out / "analysis.md"),
             Catch::Contains("**Trace kind**: graph_capture") &&
                 Catch::Contains("not a step: its times are not step times"));
  const auto run = parse_file(out / "loupe_run.json");
  CHECK(run["window"]["capture_begins"].GetInt64() == 1);
  CHECK(run["window"]["graph_launches"].GetInt64() == 0);
}

namespace {

// Five ProfilerSteps on host thread 100: a 3 ms warm-up, three of 1 ms and one of 1.6 ms; each
// holds an aten::relu launching one 100 µs kernel 50 µs into the step.
std::string five_steps_trace() {
  std::string events;
  const int starts[] = {0, 3000, 4000, 5000, 6000};
  const int durs[] = {3000, 1000, 1000, 1000, 1600};
  for (int i = 0; i < 5; ++i) {
    const std::string n = std::to_string(i + 1), t = std::to_string(starts[i]);
    const std::string launch = std::to_string(starts[i] + 50);
    const std::string kts = std::to_string(starts[i] + 60);
    if (i > 0) events += ",";
    events += R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#)" + n +
              R"(","pid":100,"tid":100,"ts":)" + t + R"(,"dur":)" + std::to_string(durs[i]) + "},";
    events += R"({"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":)" +
              std::to_string(starts[i] + 40) + R"(,"dur":20,"args":{"External id":)" + n + "}},";
    events +=
        R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":)" +
        launch + R"(,"dur":5,"args":{"correlation":)" + n + R"(,"External id":)" + n + "}},";
    events += R"({"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":)" + kts +
              R"(,"dur":100,"args":{"correlation":)" + n + R"(,"stream":7,"device":0}},)";
    events += R"({"ph":"s","id":)" + n + R"(,"pid":100,"tid":100,"ts":)" + launch +
              R"(,"cat":"ac2g","name":"ac2g"},)";
    events += R"({"ph":"f","id":)" + n + R"(,"pid":0,"tid":7,"ts":)" + kts +
              R"(,"cat":"ac2g","name":"ac2g","bp":"e"})";
  }
  return loupe::test::trace::wrap_events(events);
}

}  // namespace

TEST_CASE("the steps of a trace: table, warm-up, variation finding, in every output",
          "[trace][cli][steps]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "steps.json";
  loupe::test::write_text(trace, five_steps_trace());
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);

  const auto findings = parse_file(out / "findings.json");
  REQUIRE(findings.HasMember("steps"));
  const auto& steps = findings["steps"];
  CHECK(std::string(steps["source"].GetString()) == "profiler_step");
  CHECK(steps["count"].GetInt64() == 5);
  CHECK(steps["warmup_steps"].GetInt64() == 1);
  REQUIRE(steps["table"].Size() == 5);
  CHECK(steps["table"][0]["warmup"].GetBool());
  CHECK(steps["table"][1]["step_ms"].GetDouble() == 1.0);
  CHECK(steps["table"][1]["busy_ms"].GetDouble() == 0.1);
  CHECK(steps["table"][1]["host_ms"].GetDouble() == 0.02);  // the aten::relu
  CHECK(steps["aggregate"]["steps"].GetInt64() == 4);
  CHECK(steps["aggregate"]["median_step_ms"].GetDouble() == 1.0);
  CHECK(steps["variation"]["significant"].GetBool());
  CHECK(steps["variation"]["excess_ms"].GetDouble() == 0.6);
  CHECK(std::string(steps["variation"]["slow_steps"][0].GetString()) == "ProfilerStep#5");
  // Every member the schema requires (docs/schemas/run_findings.schema.json).
  rapidjson::Document schema;
  schema.Parse(loupe::test::read_text(loupe::test::bundled_data_dir().parent_path().parent_path() /
                                      "docs/schemas/run_findings.schema.json")
                   .c_str());
  REQUIRE(schema.IsObject());
  const auto& props = schema["properties"]["steps"];
  for (const auto& key : props["required"].GetArray()) CHECK(steps.HasMember(key.GetString()));
  for (const auto& key : props["properties"]["table"]["items"]["required"].GetArray()) {
    CHECK(steps["table"][0].HasMember(key.GetString()));
  }

  // The variation is a ranked, measured finding of 0.6 ms beyond the median (high end).
  bool found = false;
  for (const auto& f : findings["findings"].GetArray()) {
    if (std::string(f["title"].GetString()).rfind("Step time varies", 0) != 0) continue;
    found = true;
    CHECK(std::string(f["evidence"].GetString()) == "measured");
    CHECK(f["stated_saving_ms"]["high"].GetDouble() == Approx(0.6));
  }
  CHECK(found);

  const std::string md = loupe::test::read_text(out / "analysis.md");
  CHECK_THAT(md, Catch::Contains("## Steps") &&
                     Catch::Contains("| ProfilerStep#1 (warm-up) | 3.000 |") &&
                     Catch::Contains("1 of 4 steady steps exceed the median (1.000 ms)") &&
                     Catch::Contains("Step time varies: 1 of 4 steps"));
  CHECK(run_loupe({"validate", "--report", out.string()}).exit_code == 0);
  CHECK_THAT(loupe::test::read_text(out / "report.html"),
             Catch::Contains("<section id=\"steps\"><h2>Steps</h2>"));

  // Compat mode keeps TraceLens's files: no steps block, section or finding.
  const fs::path compat = tmp.path() / "compat";
  REQUIRE(run_loupe({"analyze", "--trace", trace.string(), "-o", compat.string(), "--compat",
                     "tracelens", "-q"})
              .exit_code == 0);
  CHECK_FALSE(parse_file(compat / "findings.json").HasMember("steps"));
  const std::string compat_md = loupe::test::read_text(compat / "analysis.md");
  CHECK_THAT(compat_md, !Catch::Contains("## Steps") && !Catch::Contains("Step time varies"));
}

TEST_CASE("the allocator's memory timeline: csv, findings.json, analysis.md, report.html",
          "[trace][cli][memory]") {
  // The sample trace's events plus three allocator events on cuda:0 inside its aten::relu:
  // 1 MiB, 3 MiB (the peak: 4 MiB allocated, 8 MiB reserved), then the 1 MiB freed.
  std::string events;
  const auto mem = [](int ts, int addr, long long bytes, long long allocated) {
    return R"({"ph":"i","cat":"cpu_instant_event","s":"t","name":"[memory]","pid":100,"tid":100,"ts":)" +
           std::to_string(ts) + R"(,"args":{"Addr":)" + std::to_string(addr) + R"(,"Bytes":)" +
           std::to_string(bytes) + R"(,"Total Allocated":)" + std::to_string(allocated) +
           R"(,"Total Reserved":8388608,"Device Id":0,"Device Type":1}})";
  };
  events =
      R"({"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":100,"dur":50,"args":{"External id":1}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":110,"dur":5,"args":{"correlation":5,"External id":1}},)"
      R"({"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":160,"dur":20,"args":{"correlation":5,"stream":7,"device":0}},)"
      R"({"ph":"s","id":5,"pid":100,"tid":100,"ts":110,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":5,"pid":0,"tid":7,"ts":160,"cat":"ac2g","name":"ac2g","bp":"e"},)" +
      mem(101, 16, 1048576, 1048576) + "," + mem(102, 32, 3145728, 4194304) + "," +
      mem(120, 16, -1048576, 3145728);
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "memory.json";
  loupe::test::write_text(trace, loupe::test::trace::wrap_events(events));
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const std::string csv = loupe::test::read_text(out / "perf_report_csvs/memory_timeline.csv");
  CHECK(csv ==
        "device,ts_ns,allocated_bytes,reserved_bytes,bytes,op\n"
        "cuda:0,101000,1048576,8388608,1048576,aten::relu\n"
        "cuda:0,102000,4194304,8388608,3145728,aten::relu\n"
        "cuda:0,120000,3145728,8388608,-1048576,aten::relu\n");
  const auto findings = parse_file(out / "findings.json");
  REQUIRE(findings.HasMember("memory"));
  const auto& memory = findings["memory"];
  CHECK(memory["allocator_events"].GetInt64() == 3);
  REQUIRE(memory["devices"].Size() == 1);
  const auto& dev = memory["devices"][0];
  CHECK(dev["peak_allocated_bytes"].GetInt64() == 4194304);
  CHECK(dev["peak_reserved_bytes"].GetInt64() == 8388608);
  CHECK(std::string(dev["live_at_peak"][0]["op"].GetString()) == "aten::relu");
  CHECK(dev["live_at_peak"][0]["bytes"].GetInt64() == 4194304);
  rapidjson::Document schema;
  schema.Parse(loupe::test::read_text(loupe::test::bundled_data_dir().parent_path().parent_path() /
                                      "docs/schemas/run_findings.schema.json")
                   .c_str());
  REQUIRE(schema.IsObject());
  for (const auto& key : schema["properties"]["memory"]["required"].GetArray()) {
    CHECK(memory.HasMember(key.GetString()));
  }
  for (const auto& key :
       schema["properties"]["memory"]["properties"]["devices"]["items"]["required"].GetArray()) {
    CHECK(dev.HasMember(key.GetString()));
  }
  CHECK_THAT(loupe::test::read_text(out / "analysis.md"),
             Catch::Contains("## Memory") && Catch::Contains("| cuda:0 | 0.004 |"));
  CHECK(run_loupe({"validate", "--report", out.string()}).exit_code == 0);
  CHECK_THAT(
      loupe::test::read_text(out / "report.html"),
      Catch::Contains("<section id=\"memory\"><h2>Memory</h2>") && Catch::Contains("<polyline"));

  // Compat mode stays TraceLens's: no memory_timeline.csv, block or section.
  const fs::path compat = tmp.path() / "compat";
  REQUIRE(run_loupe({"analyze", "--trace", trace.string(), "-o", compat.string(), "--compat",
                     "tracelens", "-q"})
              .exit_code == 0);
  CHECK_FALSE(fs::exists(compat / "perf_report_csvs/memory_timeline.csv"));
  CHECK_FALSE(parse_file(compat / "findings.json").HasMember("memory"));
  CHECK_THAT(loupe::test::read_text(compat / "analysis.md"), !Catch::Contains("## Memory"));
}

TEST_CASE("a host-to-device copy is judged against the host link, not HBM", "[trace][cli]") {
  // A relu kernel of 9 ms and a pageable copy of 10 MB taking 1 ms (10 GB/s, 15.6 % of the
  // H100's 64 GB/s link; 10 % of the run).
  std::string events =
      R"({"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":100,"tid":100,"ts":0,"dur":1100,"args":{"External id":1,"Input Dims":[[5000000],[5000000],[]],"Input type":["c10::BFloat16","c10::BFloat16","Scalar"]}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":100,"tid":100,"ts":10,"dur":1050,"args":{"correlation":3,"External id":1}},)"
      R"j({"ph":"X","cat":"gpu_memcpy","name":"Memcpy HtoD (Pageable -> Device)","pid":0,"tid":7,"ts":20,"dur":1000,"args":{"correlation":3,"stream":7,"device":0,"bytes":10000000}},)j"
      R"({"ph":"s","id":3,"pid":100,"tid":100,"ts":10,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":3,"pid":0,"tid":7,"ts":20,"cat":"ac2g","name":"ac2g","bp":"e"},)"
      R"({"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":1200,"dur":50,"args":{"External id":2,"Input Dims":[[4096,4096]],"Input type":["float"]}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":1210,"dur":5,"args":{"correlation":5,"External id":2}},)"
      R"({"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":1020,"dur":9000,"args":{"correlation":5,"stream":7,"device":0}},)"
      R"({"ph":"s","id":5,"pid":100,"tid":100,"ts":1210,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":5,"pid":0,"tid":7,"ts":1020,"cat":"ac2g","name":"ac2g","bp":"e"})";
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "h2d.json";
  loupe::test::write_text(trace, loupe::test::trace::wrap_events(events));
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe(
      {"analyze", "--trace", trace.string(), "-o", out.string(), "--platform", "H100", "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);

  // The copy is not an elementwise op judged against HBM; it is named as left out.
  const auto elementwise = parse_file(out / "category_data/elementwise_metrics.json");
  const auto& left_out = elementwise["category_specific"]["host_device_copies"];
  REQUIRE(left_out.Size() == 1);
  CHECK(std::string(left_out[0]["name"].GetString()) == "aten::copy_");
  CHECK(left_out[0]["time_ms"].GetDouble() == 1.0);
  CHECK_THAT(loupe::test::read_text(out / "category_findings/elementwise_findings.md"),
             !Catch::Contains("Memcpy HtoD"));

  // multi_kernel: 10 GB/s against the 64 GB/s link; saving down to 80 % of the link.
  const auto mk = parse_file(out / "category_data/multi_kernel_metrics.json");
  const auto& issue = mk["memcpy_assessment"]["issues"][0];
  CHECK(std::string(issue["direction"].GetString()) == "H2D");
  CHECK(issue["achieved_gbps"].GetDouble() == 10.0);
  CHECK(issue["host_link_gbps"].GetDouble() == 64.0);
  CHECK(issue["host_link_percent"].GetDouble() == 15.62);  // 15.625, half to even
  const auto findings = parse_file(out / "findings.json");
  bool found = false;
  for (const auto& f : findings["findings"].GetArray()) {
    if (std::string(f["category"].GetString()) != "multi_kernel") continue;
    found = true;
    CHECK(std::string(f["evidence"].GetString()) == "modeled");
    // 1 ms - 10 MB / (0.8 x 64 GB/s) = 0.805 ms (stated; the ledger may cap it further).
    CHECK(f["stated_saving_ms"]["mid"].GetDouble() == Approx(0.805).margin(0.001));
    CHECK(f["saving_ms"]["mid"].GetDouble() <= 0.806);
    CHECK_THAT(f["insight"].GetString(), Catch::Contains("of the 64 GB/s host link"));
  }
  CHECK(found);

  // Compat mode keeps TraceLens's judgement: no host-link figures.
  const fs::path compat = tmp.path() / "compat";
  REQUIRE(run_loupe({"analyze", "--trace", trace.string(), "-o", compat.string(), "--platform",
                     "H100", "--compat", "tracelens", "-q"})
              .exit_code == 0);
  CHECK_THAT(loupe::test::read_text(compat / "category_data/multi_kernel_metrics.json"),
             !Catch::Contains("host_link"));
}
