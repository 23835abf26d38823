// Interval-engine cases I1-I9 (spec docs/contracts/multi_kernel.md §8.6), values and int/float
// spelling as TraceLens returned them (expected/interval_engine_cases.txt).
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "loupe/core/prepare/gpu_intervals.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/json_value.hpp"

namespace {

namespace trace = loupe::core::trace;
using loupe::core::prepare::GpuInterval;
using loupe::core::prepare::IntervalMetrics;
using loupe::core::prepare::PandasNumber;

struct Ev {
  trace::Category cat;
  const char* name;
  double ts, dur;
};

std::string py(PandasNumber n) {
  return n.is_int ? std::to_string(static_cast<long long>(n.value))
                  : loupe::py::float_repr(n.value);
}

IntervalMetrics run(const std::vector<Ev>& events, std::optional<double> micro = {}) {
  std::vector<GpuInterval> in;
  for (const Ev& e : events) {
    in.push_back({e.ts, e.ts + e.dur, trace::classify_gpu_op(e.cat, e.name)});
  }
  return loupe::core::prepare::compute_interval_metrics(in, false, micro);
}

// "computation/exposed_comm/exposed_memcpy/busy/idle/total/total_comm/total_memcpy"
std::string row(const IntervalMetrics& m) {
  return py(m.computation) + "/" + py(m.exposed_comm) + "/" + py(m.exposed_memcpy) + "/" +
         py(m.busy) + "/" + py(m.idle) + "/" + py(m.total) + "/" + py(m.total_comm) + "/" +
         py(m.total_memcpy);
}

std::string sizes(const IntervalMetrics& m) {
  return std::to_string(m.all) + "/" + std::to_string(m.computation_count) + "/" +
         std::to_string(m.communication_count) + "/" + std::to_string(m.memcpy_count);
}

constexpr auto K = trace::Category::kKernel;
constexpr auto C = trace::Category::kGpuMemcpy;
constexpr auto S = trace::Category::kGpuMemset;

}  // namespace

TEST_CASE("I1 touching intervals merge") {
  const auto m = run({{K, "a", 0, 10}, {K, "b", 10, 10}, {K, "ncclK", 20, 5}});
  CHECK(row(m) == "20.0/5.0/0/25.0/0.0/25.0/5.0/0");
  CHECK(sizes(m) == "3/2/1/0");
}

TEST_CASE("I2 nested, unsorted, same stream") {
  const auto m = run({{K, "b", 5, 2}, {K, "a", 0, 10}, {K, "c", 8, 4}});
  CHECK(row(m) == "12.0/0/0/12.0/0.0/12.0/0/0");
  CHECK(sizes(m) == "3/3/0/0");
}

TEST_CASE("I3 memcpy under compute and comm") {
  const auto m =
      run({{K, "a", 0, 10}, {K, "rccl_x", 8, 6}, {C, "Memcpy DtoH (Device -> Host)", 5, 15}});
  CHECK(row(m) == "10.0/4.0/6.0/20.0/0.0/20.0/6.0/15.0");
  CHECK(sizes(m) == "3/1/1/1");
}

TEST_CASE("I4 memset is computation unless nccl-named") {
  const auto m = run({{S, "Memset (Device)", 0, 10}, {S, "nccl_memset_weird", 20, 10}});
  CHECK(row(m) == "10.0/10.0/0/20.0/10.0/30.0/10.0/0");
  CHECK(sizes(m) == "2/1/1/0");
}

TEST_CASE("I5 communication name patterns") {
  const auto m = run(
      {{K, "NCCL_upper", 0, 1}, {K, "my_Cross_Device_Reduce_2stage", 2, 1}, {K, "ncclx", 4, 1}});
  CHECK(row(m) == "0/3.0/0/3.0/2.0/5.0/3.0/0");
  CHECK(sizes(m) == "3/0/3/0");
}

TEST_CASE("I6 ROCm legacy copy and fill kernels") {
  const auto m = run({{K, "MEMORY_COPY_HOST_TO_DEVICE", 0, 1},
                      {K, "__amd_rocclr_copyBufferRectAligned.kd", 2, 1},
                      {K, "__amd_rocclr_fillBuffer", 4, 1},
                      {K, "MEMORY_COPY_HOST_TO_DEVICE_extra", 6, 1},
                      {S, "__amd_rocclr_copyBuffer", 8, 1}});
  CHECK(row(m) == "3.0/0/2.0/5.0/4.0/9.0/0/2.0");
  CHECK(sizes(m) == "5/3/0/2");
}

TEST_CASE("I7 zero-duration events only") {
  const auto m = run({{K, "z", 5, 0}, {K, "z2", 9, 0}});
  CHECK(row(m) == "0.0/0/0/0.0/4.0/4.0/0/0");
  CHECK(sizes(m) == "2/2/0/0");
}

TEST_CASE("I8 micro-idle threshold") {
  const auto m = run({{K, "a", 0, 10}, {K, "b", 12, 10}, {K, "c", 40, 10}}, 5.0);
  CHECK(row(m) == "30.0/0/0/30.0/20.0/50.0/0/0");
  REQUIRE(m.micro_idle);
  REQUIRE(m.macro_idle);
  CHECK(py(*m.micro_idle) == "2.0");
  CHECK(py(*m.macro_idle) == "18.0");
}

TEST_CASE("I9 two devices share one timeline") {
  const auto m = run({{K, "gemm", 0, 100}, {K, "ncclDevKernel_AllReduce", 0, 100}});
  CHECK(row(m) == "100.0/0/0/100.0/0.0/100.0/100.0/0");
}

TEST_CASE("integer times keep Python ints") {
  std::vector<GpuInterval> in = {{0, 10, trace::GpuClass::kComputation},
                                 {20, 25, trace::GpuClass::kComputation}};
  const auto m = loupe::core::prepare::compute_interval_metrics(in, true);
  CHECK(row(m) == "15/0/0/15/10/25/0/0");
}
