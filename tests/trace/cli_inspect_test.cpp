// `loupe inspect` end to end: every trace of the reference pack, the gpu_timeline.csv it
// writes, JSON output, and clean failures (exit 2, byte offset) on malformed files.
#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "test_paths.hpp"
#include "trace_text.hpp"

namespace fs = std::filesystem;
using loupe::test::run_loupe;

TEST_CASE("loupe inspect --help and usage errors", "[trace][cli]") {
  const auto help = run_loupe({"inspect", "--help"});
  CHECK(help.exit_code == 0);
  CHECK_THAT(help.out, Catch::Contains("--gpu-timeline-csv"));
  CHECK(run_loupe({"inspect"}).exit_code == 2);
  CHECK(run_loupe({"inspect", "/nonexistent/trace.json"}).exit_code == 2);
  CHECK(run_loupe({"inspect", "x.json", "--compat", "other"}).exit_code == 2);
}

TEST_CASE("loupe inspect on a small trace: text and JSON", "[trace][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json.gz";
  loupe::test::write_text(trace, loupe::test::trace::gzip(loupe::test::trace::small_trace()));
  const auto text = run_loupe({"inspect", trace.string()});
  REQUIRE(text.exit_code == 0);
  CHECK_THAT(text.out, Catch::Contains("1 of 1 GPU ops linked"));
  CHECK_THAT(text.out, Catch::Contains("relu_kernel"));
  const auto json = run_loupe(
      {"inspect", trace.string(), "--json", "--gpu-timeline-csv", (tmp.path() / "t.csv").string()});
  REQUIRE(json.exit_code == 0);
  rapidjson::Document d;
  d.Parse(json.out.c_str());
  REQUIRE_FALSE(d.HasParseError());
  CHECK(d["events"].GetUint64() == 5);
  CHECK(d["gzip"].GetBool());
  CHECK(d["gpu_timeline_us"]["busy_time"].GetDouble() == 20.0);
  CHECK(d["events_by_category"]["ac2g"].GetUint64() == 2);
  CHECK(loupe::test::read_text(tmp.path() / "t.csv") ==
        "type,time ms,percent\ncomputation_time,0.02,100.0\nexposed_comm_time,0.0,0.0\n"
        "exposed_memcpy_time,0.0,0.0\nbusy_time,0.02,100.0\nidle_time,0.0,0.0\ntotal_time,0.02,100."
        "0\n"
        "total_comm_time,0.0,0.0\ntotal_memcpy_time,0.0,0.0\n");
}

TEST_CASE("loupe inspect fails cleanly on malformed files, naming the byte offset",
          "[trace][cli]") {
  loupe::test::TempDir tmp;
  const std::string text = loupe::test::trace::small_trace();
  const fs::path truncated = tmp.path() / "cut.json";
  loupe::test::write_text(truncated, text.substr(0, 200));
  const auto r = run_loupe({"inspect", truncated.string()});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("byte 200") && Catch::Contains("truncated"));
  const fs::path cut_gz = tmp.path() / "cut.json.gz";
  const std::string z = loupe::test::trace::gzip(text);
  loupe::test::write_text(cut_gz, z.substr(0, z.size() / 2));
  const auto g = run_loupe({"inspect", cut_gz.string()});
  CHECK(g.exit_code == 2);
  CHECK_THAT(g.err, Catch::Contains("truncated gzip"));
}

TEST_CASE("loupe inspect works on every trace of the reference pack",
          "[trace][cli][reference][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t traces = 0;
  std::size_t refused = 0;
  for (const auto& entry : fs::recursive_directory_iterator(shared / "data" / "traces")) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !(name.ends_with(".json") || name.ends_with(".json.gz")))
      continue;
    INFO(entry.path().string());
    const auto r = run_loupe({"inspect", entry.path().string(), "--json"});
    // The serving runs' capture_traces/execution_details.json lists the capture traces: a JSON
    // array of {file, batch_size, mode}, refused by name before the parse.
    if (name == "execution_details.json") {
      CHECK(r.exit_code == 2);
      CHECK_THAT(r.err, Catch::Contains("not a trace event") && Catch::Contains("\"file\""));
      ++refused;
      continue;
    }
    REQUIRE(r.exit_code == 0);
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    REQUIRE_FALSE(d.HasParseError());
    CHECK(d["events"].GetUint64() > 0);
    CHECK(d["tree"]["gpu_ops"].GetUint64() > 0);
    ++traces;
  }
  CHECK(traces >= 33);
  CHECK(refused == 2);
}

TEST_CASE("loupe inspect on h100 Qwen: real numbers", "[trace][cli][reference][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto r = run_loupe(
      {"inspect", (shared / "data/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz").string(),
       "--json", "--compat", "tracelens"});
  REQUIRE(r.exit_code == 0);
  rapidjson::Document d;
  d.Parse(r.out.c_str());
  CHECK(d["events"].GetUint64() == 18221);
  CHECK(d["tree"]["gpu_ops"].GetUint64() == 1707);
  CHECK(d["tree"]["gpu_linked"].GetUint64() == 1198);
  CHECK(d["events_by_category"]["kernel"].GetUint64() == 1465);
  CHECK(d["device_names"][0].GetString() == std::string("NVIDIA H100 80GB HBM3"));
}
