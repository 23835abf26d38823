// Edge cases of the producer that the golden runs do not reach: the Step 4.5 fallback
// payload, traces without GPU events, integer-token detection, gpu_utilization CSV variants.
#include <catch2/catch.hpp>

#include <string>

#include "cli_runner.hpp"
#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace {

namespace prepare = loupe::core::prepare;
namespace trace = loupe::core::trace;

std::string data_text_of(const std::string& json) {
  const trace::LoadResult loaded = trace::load_trace_bytes(json);
  REQUIRE_FALSE(loaded.error);
  return prepare::multi_kernel_data_text(prepare::build_multi_kernel_data(loaded.model));
}

}  // namespace

TEST_CASE("string bytes on a copy: Step 4.5 fallback payload") {
  const std::string text = data_text_of(
      R"j({"traceEvents":[{"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Host)",)j"
      R"("pid":0,"tid":7,"ts":1.0,"dur":2.0,"args":{"bytes":"128","stream":7}}]})");
  CHECK(text ==
        "{\n  \"memcpy_summary\": {\n    \"total_count\": 0,\n    \"total_time_us\": 0,\n"
        "    \"by_direction\": {}\n  },\n  \"nccl_summary\": {\n    \"total_count\": 0,\n"
        "    \"total_time_us\": 0\n  },\n  \"overlap_analysis\": {},\n"
        "  \"error\": \"unsupported operand type(s) for +: 'int' and 'str'\"\n}");
}

TEST_CASE("no GPU events: empty overlap, no category") {
  const trace::LoadResult loaded = trace::load_trace_bytes(
      R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":5}]})");
  const loupe::Json data = prepare::build_multi_kernel_data(loaded.model);
  CHECK(loupe::dump_python_json(data, -1) ==
        R"({"memcpy_summary": {"total_count": 0, "total_time_us": 0, "by_direction": {}}, )"
        R"("nccl_summary": {"total_count": 0, "total_time_us": 0}, "overlap_analysis": {}})");
  CHECK_FALSE(prepare::has_multi_kernel_events(data));
}

TEST_CASE("integer-token detection looks at GPU events only") {
  loupe::test::TempDir dir;
  const auto ints = dir.path() / "ints.json";
  const auto floats = dir.path() / "floats.json";
  const auto none = dir.path() / "none.json";
  loupe::test::write_text(
      ints, R"({"traceEvents":[{"ph":"X","cat":"cpu_op","name":"a","ts":1.5,"dur":2.5},)"
            R"({"ph":"X","cat":"kernel","name":"k","ts":10,"dur":5,"args":{"ts":1.5}}]})");
  loupe::test::write_text(floats,
                          R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"k","ts":10,"dur":5},)"
                          R"({"ph":"X","cat":"gpu_memset","name":"m","ts":20.0,"dur":1}]})");
  loupe::test::write_text(none, R"({"traceEvents":[]})");
  const auto integer_times = [](const std::filesystem::path& path) {
    const auto loaded = trace::load_trace(path);
    REQUIRE_FALSE(loaded.error);
    return prepare::gpu_times_are_integers(loaded.model);
  };
  CHECK(integer_times(ints));
  CHECK_FALSE(integer_times(floats));
  CHECK_FALSE(integer_times(none));
}

TEST_CASE("integer times are written as ints") {
  const trace::LoadResult loaded = trace::load_trace_bytes(
      R"({"traceEvents":[{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":0,"ts":10,"dur":5},)"
      R"({"ph":"X","cat":"kernel","name":"ncclK","pid":0,"tid":0,"ts":20,"dur":4,"args":{"stream":0}}]})");
  prepare::MultiKernelOptions options;
  options.integer_times = true;
  const std::string text =
      loupe::dump_python_json(prepare::build_multi_kernel_data(loaded.model, options), -1);
  CHECK(text ==
        R"({"memcpy_summary": {"total_count": 0, "total_time_us": 0, "by_direction": {}}, )"
        R"("nccl_summary": {"total_count": 1, "total_time_us": 4, "avg_time_us": 4.0, )"
        R"("max_time_us": 4, "top_ops": [{"name": "ncclK", "duration_us": 4, "stream": null}]}, )"
        R"("overlap_analysis": {"total_time_us": 14, "computation_time_us": 5, )"
        R"("total_comm_time_us": 4, "exposed_comm_time_us": 4, "total_memcpy_time_us": 0, )"
        R"("exposed_memcpy_time_us": 0, "comm_overlap_ratio": 0.0, "memcpy_overlap_ratio": null, )"
        R"("comm_percent_of_total": 28.57, "memcpy_percent_of_total": 0.0}})");
}

TEST_CASE("gpu_utilization: last row wins, missing rows are int 0, pandas rounding") {
  const std::string csv =
      "type,time ms,percent,is_recompute\n"
      "computation_time,0.1,10.0,False\n"
      "total_time,1.0,100.0,False\n"
      "computation_time,0.2,20.0,True\n"
      "micro_idle_time,0.0,0.0,True\n"
      "exposed_memcpy_time,0.011,0.10890010890010891,True\n"
      "total_time,2.0,100.0,True\n";
  CHECK(loupe::dump_python_json(prepare::gpu_utilization_from_csv(csv), -1) ==
        R"({"total_time_ms": 2.0, "computation_time_percent": 20.0, )"
        R"("exposed_comm_time_percent": 0, "exposed_memcpy_time_percent": 0.1089001089001089, )"
        R"("idle_time_percent": 0})");
}
