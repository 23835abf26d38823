// trace/gpu_events.csv and trace/op_kernels.csv: what they hold for a small trace, and that a
// plugin reads them through the SDK model during `loupe analyze --trace`.
#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "loupe/core/prepare/trace_views.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace fs = std::filesystem;
namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

// aten::copy_ launches a D2H memcpy (linked) and aten::mm two kernels (one linked, one whose
// flow is missing, so it stays unlinked); a memset without a launch.
constexpr const char* kTrace = R"JSON({"traceEvents": [
 {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":0,"dur":100,"args":{"External id":1}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":10,"dur":5,"args":{"correlation":11}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":20,"dur":5,"args":{"correlation":12}},
 {"ph":"X","cat":"kernel","name":"gemm_kernel","pid":0,"tid":7,"ts":200,"dur":30,"args":{"correlation":11,"stream":7}},
 {"ph":"X","cat":"kernel","name":"bias_kernel","pid":0,"tid":7,"ts":220,"dur":20,"args":{"correlation":99,"stream":7}},
 {"ph":"X","cat":"cpu_op","name":"aten::copy_","pid":1,"tid":1,"ts":120,"dur":50,"args":{"External id":2}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":130,"dur":5,"args":{"correlation":13}},
 {"ph":"X","cat":"gpu_memcpy","name":"Memcpy DtoH (Device -> Pinned)","pid":0,"tid":7,"ts":300,"dur":8,"args":{"correlation":13,"stream":7,"bytes":4096}},
 {"ph":"X","cat":"gpu_memset","name":"Memset (Device)","pid":0,"tid":7,"ts":400,"dur":2,"args":{"stream":7}},
 {"ph":"s","id":11,"pid":1,"tid":1,"ts":10,"cat":"ac2g","name":"ac2g"},
 {"ph":"f","id":11,"pid":0,"tid":7,"ts":200,"cat":"ac2g","name":"ac2g","bp":"e"},
 {"ph":"s","id":13,"pid":1,"tid":1,"ts":130,"cat":"ac2g","name":"ac2g"},
 {"ph":"f","id":13,"pid":0,"tid":7,"ts":300,"cat":"ac2g","name":"ac2g","bp":"e"}
]})JSON";

}  // namespace

TEST_CASE("trace views list GPU ops by kind and per-op kernel time", "[prepare][trace_views]") {
  auto loaded = lt::load_trace_bytes(kTrace);
  REQUIRE_FALSE(loaded.error.has_value());
  const auto tree = lt::EventTree::build(loaded.model);
  const auto views = lp::build_trace_views(loaded.model, tree);

  const auto& gpu = *views.gpu_events;
  REQUIRE(gpu.row_count() == 4);
  const auto col = [&](std::string_view name) {
    for (std::size_t c = 0; c < gpu.column_count(); ++c) {
      if (gpu.column_name(c) == name) return c;
    }
    FAIL("no column " << name);
    return std::size_t{0};
  };
  const auto cell = [&](std::size_t row, std::string_view name) {
    return gpu.cell(row, col(name)).text;
  };
  CHECK(cell(0, "name") == "gemm_kernel");
  CHECK(cell(0, "kind") == "kernel");
  CHECK(cell(0, "linked") == "True");
  CHECK(cell(0, "op_name") == "aten::mm");
  CHECK(cell(0, "launcher_name") == "cudaLaunchKernel");
  CHECK(cell(0, "ts_ns") == "200000");
  CHECK(cell(0, "dur_ns") == "30000");
  CHECK(cell(0, "stream") == "7");
  CHECK(cell(1, "name") == "bias_kernel");
  CHECK(cell(1, "linked") == "False");  // its flow is missing
  CHECK(cell(1, "op_name").empty());
  CHECK(cell(2, "kind") == "memcpy");
  CHECK(cell(2, "memcpy_direction") == "D2H");
  CHECK(cell(2, "bytes") == "4096");
  CHECK(cell(2, "op_name") == "aten::copy_");
  CHECK(cell(3, "kind") == "memset");
  CHECK(cell(3, "memcpy_direction").empty());
  // The launch call's time and thread, and the host stack above it.
  CHECK(cell(0, "launcher_ts_ns") == "10000");
  CHECK(cell(0, "launcher_dur_ns") == "5000");
  CHECK(cell(0, "launcher_tid") == "1");
  CHECK(cell(0, "op_stack") == "aten::mm");
  CHECK(cell(1, "launcher_ts_ns").empty());  // unlinked
  CHECK(cell(2, "launcher_ts_ns") == "130000");
  CHECK(cell(2, "op_stack") == "aten::copy_");
  // The first 14 columns keep their order (plugins that read them by position or name).
  CHECK(gpu.column_name(13) == "bytes");
  CHECK(gpu.column_name(14) == "launcher_ts_ns");
  CHECK(views.host_calls->row_count() == 0);  // no sync, synchronous copy or scalar read

  const auto& ops = *views.op_kernels;
  REQUIRE(ops.row_count() == 2);  // aten::mm (gemm only: bias is unlinked), aten::copy_
  CHECK(ops.cell(0, 1).text == "aten::mm");
  CHECK(ops.cell(0, 2).text == "1");
  CHECK(ops.cell(0, 3).text == "30.000");
  CHECK(ops.cell(0, 4).text == "3");
  CHECK(ops.cell(1, 1).text == "aten::copy_");
  CHECK(ops.cell(1, 3).number == 8.0);
}

TEST_CASE("trace/host_calls.csv lists the host calls that can hold the GPU idle",
          "[prepare][trace_views]") {
  constexpr const char* kSyncTrace = R"JSON({"traceEvents": [
 {"ph":"X","cat":"python_function","name":"step.py(10): step","pid":1,"tid":1,"ts":0,"dur":500},
 {"ph":"X","cat":"cpu_op","name":"aten::item","pid":1,"tid":1,"ts":10,"dur":100,"args":{"External id":1}},
 {"ph":"X","cat":"cpu_op","name":"aten::_local_scalar_dense","pid":1,"tid":1,"ts":12,"dur":90,"args":{"External id":2}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpyAsync","pid":1,"tid":1,"ts":14,"dur":5,"args":{"correlation":5}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaStreamSynchronize","pid":1,"tid":1,"ts":20,"dur":80,"args":{"correlation":6}},
 {"ph":"X","cat":"cuda_runtime","name":"cudaMemcpy","pid":1,"tid":1,"ts":200,"dur":30,"args":{"correlation":7}},
 {"ph":"X","cat":"user_annotation","name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","pid":1,"tid":1,"ts":300,"dur":100}
]})JSON";
  auto loaded = lt::load_trace_bytes(kSyncTrace);
  REQUIRE_FALSE(loaded.error.has_value());
  const auto tree = lt::EventTree::build(loaded.model);
  const auto views = lp::build_trace_views(loaded.model, tree);
  const auto& calls = *views.host_calls;
  REQUIRE(calls.row_count() == 5);
  REQUIRE(calls.column_count() == 10);
  CHECK(calls.column_name(1) == "kind");
  CHECK(calls.cell(0, 1).text == "scalar_read");
  CHECK(calls.cell(0, 2).text == "aten::item");
  CHECK(calls.cell(1, 1).text == "scalar_read");
  CHECK(calls.cell(1, 8).text == "aten::item");  // op_name: the cpu_op above
  CHECK(calls.cell(2, 1).text == "sync");
  CHECK(calls.cell(2, 2).text == "cudaStreamSynchronize");
  CHECK(calls.cell(2, 4).text == "1");      // tid
  CHECK(calls.cell(2, 5).text == "20000");  // ts_ns
  CHECK(calls.cell(2, 6).text == "80000");  // dur_ns
  CHECK(calls.cell(2, 8).text == "aten::_local_scalar_dense");
  CHECK(calls.cell(2, 9).text == "aten::item > aten::_local_scalar_dense");
  CHECK(calls.cell(3, 1).text == "sync_copy");  // cudaMemcpy (no Async)
  CHECK(calls.cell(4, 1).text == "data_loader");
}

TEST_CASE("plugins read the trace views through the model", "[prepare][trace_views][cli]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "t.json";
  loupe::test::write_text(trace, kTrace);
  const auto r = loupe::test::run_loupe({"analyze", "--trace", trace.string(), "-o",
                                         (tmp.path() / "out").string(), "--plugin-dir",
                                         (loupe::test::test_plugin_dir() / "trace_reader").string(),
                                         "--only", "test_trace_reader", "-q"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  rapidjson::Document m;
  m.Parse(loupe::test::read_text(tmp.path() / "out/category_data/test_trace_reader_metrics.json")
              .c_str());
  REQUIRE_FALSE(m.HasParseError());
  CHECK(m["gpu_events"].GetInt() == 4);
  CHECK(m["op_kernels"].GetInt() == 2);
  CHECK(std::string(m["first_name"].GetString()) == "gemm_kernel");
  CHECK(std::string(m["first_kind"].GetString()) == "kernel");
  CHECK(std::string(m["first_linked"].GetString()) == "True");
  CHECK(std::string(m["first_op"].GetString()) == "aten::mm");
  CHECK(m["first_dur_ns"].GetDouble() == 30000.0);
  CHECK(m["first_op_kernel_us"].GetDouble() == 30.0);
}
