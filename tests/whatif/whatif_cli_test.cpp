// `loupe what-if`: the answer on a hand-written GPU-bound trace, and every usage error
// (exit 2 naming the problem, checked before the trace is read).
#include <catch2/catch.hpp>

#include <rapidjson/document.h>

#include <string>

#include "cli_runner.hpp"
#include "test_paths.hpp"
#include "whatif_trace.hpp"

namespace {
using loupe::test::run_loupe;
using loupe::test::TempDir;
using loupe::test::whatif_trace::TraceText;

std::string write_trace(const TempDir& dir) {
  TraceText t;
  t.host("user_annotation", "ProfilerStep#1", 0, 530);
  for (int i = 0; i < 5; ++i) {
    t.host("cpu_op", i == 2 ? "aten::mm" : "aten::add", 9 + 10 * i, 7);
    t.launch("kernel_" + std::to_string(i), 10 + 10 * i, 15 + 100 * i, 100);
  }
  t.host("cuda_runtime", "cudaDeviceSynchronize", 60, 460);
  const auto path = dir.path() / "gpu_bound.json";
  loupe::test::write_text(path, t.document());
  return path.string();
}
}  // namespace

TEST_CASE("loupe what-if predicts the step and prints the critical path", "[whatif][cli]") {
  TempDir dir;
  const std::string trace = write_trace(dir);
  const auto identity = run_loupe({"what-if", trace, "-q"});
  REQUIRE(identity.exit_code == 0);
  CHECK(identity.out.find("ProfilerStep#1") != std::string::npos);
  CHECK(identity.out.find("0.530         0.530       0.000") != std::string::npos);
  CHECK(identity.out.find("GPU compute") != std::string::npos);

  const auto text = run_loupe({"what-if", trace, "-q", "--scale", "op:aten::mm=0.5"});
  REQUIRE(text.exit_code == 0);
  CHECK(text.out.find("op:aten::mm x0.500 (1 GPU ops)") != std::string::npos);
  CHECK(text.out.find("0.530         0.480       0.050") != std::string::npos);
  CHECK(text.out.find("GPU time of the scaled ops: 0.100 ms -> 0.050 ms") != std::string::npos);

  const auto json =
      run_loupe({"what-if", trace, "-q", "--json", "--scale", "kernel:KERNEL_[34]=0.5"});
  REQUIRE(json.exit_code == 0);
  rapidjson::Document doc;
  doc.Parse(json.out.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  CHECK(doc["scales"][0]["matched_ops"].GetUint64() == 2);
  CHECK(doc["total"]["gain_ms"].GetDouble() == Approx(0.1));
  CHECK(doc["steps"][0]["predicted_ms"].GetDouble() == Approx(0.43));
  CHECK(doc["heuristic"].GetBool() == false);
  CHECK(doc["scaled_ops_ms"]["measured"].GetDouble() == Approx(0.2));
  CHECK(doc["model"]["blocking_calls"].GetUint64() == 1);

  // A selector that names no op is a warning, not an error.
  const auto none = run_loupe({"what-if", trace, "-q", "--scale", "category:conv_fwd=0.5"});
  CHECK(none.exit_code == 0);
  CHECK(none.err.find("category:conv_fwd names no GPU op") != std::string::npos);
}

TEST_CASE("loupe what-if refuses bad selectors and inputs with exit 2", "[whatif][cli]") {
  TempDir dir;
  const std::string trace = write_trace(dir);
  const struct {
    const char* scale;
    const char* message;
  } cases[] = {
      {"name:gemm=0.5", "'name:gemm': unknown selector form"},
      {"kernel:(gemm=0.5", "'kernel:(gemm': bad regular expression"},
      {"kernel:gemm=0", "the factor '0' is not a finite number above 0"},
      {"kernel:gemm=-1", "the factor '-1' is not a finite number above 0"},
      {"kernel:gemm=nan", "the factor 'nan' is not a finite number above 0"},
      {"kernel:gemm=inf", "the factor 'inf' is not a finite number above 0"},
      {"kernel:gemm=half", "the factor 'half' is not a finite number above 0"},
      {"kernel:gemm", "expected SELECTOR=FACTOR"},
      {"kernel:=0.5", "names nothing after 'kernel:'"},
  };
  for (const auto& c : cases) {
    INFO(c.scale);
    // Checked before the trace is read: a missing trace does not hide the selector's problem.
    const auto r =
        run_loupe({"what-if", (dir.path() / "missing.json").string(), "--scale", c.scale});
    CHECK(r.exit_code == 2);
    CHECK(r.err.find(c.message) != std::string::npos);
    CHECK(r.out.empty());
  }
  const auto missing = run_loupe({"what-if", (dir.path() / "missing.json").string()});
  CHECK(missing.exit_code == 2);
  CHECK(missing.err.find("missing.json: no such file") != std::string::npos);
  loupe::test::write_text(dir.path() / "broken.json", "{\"traceEvents\": [");
  const auto broken = run_loupe({"what-if", (dir.path() / "broken.json").string()});
  CHECK(broken.exit_code == 2);
  CHECK(broken.err.find("broken.json") != std::string::npos);
  CHECK(run_loupe({"what-if"}).exit_code == 2);

  const auto help = run_loupe({"help", "what-if"});
  CHECK(help.exit_code == 0);
  CHECK(help.out.find("category:NAME") != std::string::npos);
  CHECK(help.out.find("docs/what-if.md") != std::string::npos);
  CHECK(run_loupe({"--help"}).out.find("what-if TRACE") != std::string::npos);
}

TEST_CASE("loupe what-if finding:ID replays the GPU ops a finding of a run owns", "[whatif][cli]") {
  // The bundled sample analyzed, then its P1 (which owns GPU ops) replayed at half its time: the
  // selector names exactly the ops findings.json lists, and the step gains no more than the GPU
  // time taken off them.
  TempDir dir;
  const auto trace =
      loupe::test::bundled_data_dir() / "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  const auto out = dir.path() / "run";
  REQUIRE(run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "-q"}).exit_code ==
          0);
  rapidjson::Document findings;
  findings.Parse(loupe::test::read_text(out / "findings.json").c_str());
  REQUIRE(findings.IsObject());
  const rapidjson::Value* owner = nullptr;
  for (const auto& f : findings["findings"].GetArray()) {
    if (owner == nullptr && f["owns"].IsObject() && f["owns"].HasMember("kernel_uids")) owner = &f;
  }
  REQUIRE(owner != nullptr);
  const std::string id = (*owner)["id"].GetString();
  const auto kernels = (*owner)["owns"]["kernel_count"].GetUint64();
  const auto r = run_loupe({"what-if", trace.string(), "-q", "--json", "--findings",
                            (out / "findings.json").string(), "--scale", "finding:" + id + "=0.5"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  REQUIRE_FALSE(doc.HasParseError());
  CHECK(doc["scales"][0]["matched_ops"].GetUint64() == kernels);
  const double taken = doc["scaled_ops_ms"]["measured"].GetDouble() / 2.0;
  CHECK(doc["scaled_ops_ms"]["measured"].GetDouble() ==
        Approx((*owner)["owns"]["kernel_time_ms"].GetDouble()).margin(0.002));
  CHECK(doc["total"]["gain_ms"].GetDouble() <= taken + 0.001);

  const auto unknown = run_loupe({"what-if", trace.string(), "--findings",
                                  (out / "findings.json").string(), "--scale", "finding:nope=0.5"});
  CHECK(unknown.exit_code == 2);
  CHECK(unknown.err.find("finding:nope: no finding with that id") != std::string::npos);
  const auto without = run_loupe({"what-if", trace.string(), "--scale", "finding:" + id + "=0.5"});
  CHECK(without.exit_code == 2);
  CHECK(without.err.find("finding: selectors need --findings") != std::string::npos);
}
