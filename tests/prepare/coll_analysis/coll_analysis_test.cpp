// coll_analysis.csv on small inline traces, values computed by hand (docs/contracts/trace_model.md §3.11).
//
// TraceLens facts these cases pin down (from reading its NcclAnalyser and perf report):
// * Kernels considered: cat "kernel", name containing nccl / rccl / cross_device_reduce in
//   any case, and a correlation or an External id in args; other kernels never enter.
// * Each kernel's row copies ten args (group name and ranks, collective name, group size,
//   dtype, in/out nelems, in/out split sizes, stream); a missing key is None.
// * A kernel whose name contains cross_device_reduce and has no collective name is counted
//   as an allreduce.
// * Message size in MB = nelems * bytes per element / 2^20, for the dtypes Float, Int (4),
//   Long, Double (8), BFloat16, Half, Short (2), Bool, Byte (1); other dtypes give no size.
// * A missing group name becomes "Unknown_Group", unless no kernel names a group and all
//   kernels share one stream: then every kernel is put in the group "all".
// * The summary groups by rank (0 for the single trace) and the ten args with pandas'
//   default dropna, so a kernel lacking any of them (e.g. no collective metadata) vanishes
//   from the table, but it still widens int columns to float (Group size prints 2.0).
// * Per group: first in/out MB, dur sum / mean / sample std / min / max and the kernel count
//   (operation_count), sorted by dur_sum, largest first.
// * The file is written only when that table has rows, and never for a GPU-only trace.
#include <catch2/catch.hpp>

#include <optional>
#include <string>

#include "loupe/core/prepare/coll_analysis.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace lp = loupe::core::prepare;
namespace lt = loupe::core::trace;

namespace {

const std::string kHeader =
    "rank,Process Group Name,Process Group Ranks,Collective name,Group size,dtype,"
    "In msg nelems,Out msg nelems,In split size,Out split size,stream,"
    "In msg size (MB)_first,Out msg size (MB)_first,dur_sum,dur_mean,dur_std,dur_min,dur_max,"
    "operation_count\n";

// A GPU kernel event; `args` is the inside of its args object.
std::string kernel(const std::string& name, int ts, const std::string& dur,
                   const std::string& args) {
  return R"({"ph":"X","cat":"kernel","name":")" + name + R"(","pid":0,"tid":7,"ts":)" +
         std::to_string(ts) + R"(,"dur":)" + dur + R"(,"args":{)" + args + "}}";
}

// Full collective metadata of a two-rank group, without the group name.
std::string metadata(const std::string& collective, const std::string& dtype, int nelems) {
  const std::string n = std::to_string(nelems);
  std::string text = R"("Process Group Ranks":"[0, 1]","Group size":2,"dtype":")" + dtype +
                     R"(","In msg nelems":)" + n + R"(,"Out msg nelems":)" + n +
                     R"(,"In split size":"[]","Out split size":"[]","stream":7)";
  if (!collective.empty()) text += R"(,"Collective name":")" + collective + R"(")";
  return text;
}

std::optional<std::string> csv_of(const std::string& events, bool with_cpu_op = true) {
  std::string text = R"({"traceEvents":[)";
  if (with_cpu_op) {
    text += R"({"ph":"X","cat":"cpu_op","name":"aten::add","pid":1,"tid":1,"ts":1,"dur":1},)";
  }
  auto loaded = lt::load_trace_bytes(text + events + "]}");
  REQUIRE_FALSE(loaded.error.has_value());
  return lp::coll_analysis_csv(loaded.model);
}

}  // namespace

TEST_CASE("coll_analysis groups collective kernels and drops those without metadata",
          "[prepare][coll]") {
  const std::string group0 =
      R"("Process Group Name":"0",)" + metadata("allreduce", "BFloat16", 1048576);
  const std::string events =
      kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 100, "10.5",
             R"("correlation":1,)" + group0) +
      "," +
      kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 200, "12.5",
             R"("correlation":2,)" + group0) +
      // No collective metadata: dropped by the grouping (but widens Group size to float).
      "," + kernel("ncclDevKernel_Generic", 300, "99.0", R"("correlation":3,"stream":7)") +
      // No group name and no collective name: Unknown_Group, inferred allreduce.
      "," +
      kernel("void vllm::cross_device_reduce_1stage<float, 2>", 400, "4.0",
             R"("External id":4,)" + metadata("", "Float", 262144)) +
      // Not linked (no correlation, no External id): never considered.
      "," + kernel("ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 500, "50.0", group0) +
      // Not a communication kernel.
      "," + kernel("Cijk_gemm", 600, "70.0", R"("correlation":6,)" + group0);
  const auto csv = csv_of(events);
  REQUIRE(csv.has_value());
  // Group "0": 1048576 bf16 elements = 2 MB; durs 10.5 + 12.5 = 23, mean 11.5, sample std
  // sqrt(((-1)^2 + 1^2) / 1) = sqrt(2). Unknown_Group: 262144 floats = 1 MB, one kernel.
  CHECK(*csv == kHeader +
                    "0,0,\"[0, 1]\",allreduce,2.0,BFloat16,1048576.0,1048576.0,[],[],7,2.0,2.0,"
                    "23.0,11.5,1.4142135623730951,10.5,12.5,2\n"
                    "0,Unknown_Group,\"[0, 1]\",allreduce,2.0,Float,262144.0,262144.0,[],[],7,"
                    "1.0,1.0,4.0,4.0,,4.0,4.0,1\n");
}

TEST_CASE("coll_analysis keeps int columns when every kernel has the args", "[prepare][coll]") {
  // Integer durations stay ints in sum / min / max; mean and std are floats.
  const std::string args =
      R"("correlation":1,"Process Group Name":"3",)" + metadata("_allgather_base", "Long", 3);
  const auto csv = csv_of(kernel("ncclDevKernel_AllGather_RING_LL", 100, "5", args) + "," +
                          kernel("ncclDevKernel_AllGather_RING_LL", 200, "7", args));
  REQUIRE(csv.has_value());
  // 3 longs = 24 bytes = 24 / 2^20 MB.
  CHECK(*csv == kHeader +
                    "0,3,\"[0, 1]\",_allgather_base,2,Long,3,3,[],[],7,2.288818359375e-05,"
                    "2.288818359375e-05,12,6.0,1.4142135623730951,5,7,2\n");
}

TEST_CASE("coll_analysis names the group 'all' when no kernel has a group on one stream",
          "[prepare][coll]") {
  const auto csv = csv_of(kernel("cross_device_reduce_2stage", 100, "3.0",
                                 R"("correlation":1,)" + metadata("", "Half", 524288)));
  REQUIRE(csv.has_value());
  CHECK(*csv == kHeader +
                    "0,all,\"[0, 1]\",allreduce,2,Half,524288,524288,[],[],7,1.0,1.0,3.0,3.0,,"
                    "3.0,3.0,1\n");
}

TEST_CASE("coll_analysis writes no file without a complete collective kernel or for GPU-only",
          "[prepare][coll]") {
  // Only kernels without collective metadata: the grouped table is empty.
  CHECK_FALSE(csv_of(kernel("ncclDevKernel_Generic", 100, "9.0", R"("correlation":1,"stream":4)"))
                  .has_value());
  // No communication kernel at all.
  CHECK_FALSE(csv_of(kernel("Cijk_gemm", 100, "9.0", R"("correlation":1)")).has_value());
  // A GPU-only trace (no cpu_op) skips the collective analysis altogether.
  const std::string args =
      R"("correlation":1,"Process Group Name":"0",)" + metadata("allreduce", "Float", 8);
  CHECK(csv_of(kernel("ncclKernel", 100, "2.0", args)).has_value());
  CHECK_FALSE(csv_of(kernel("ncclKernel", 100, "2.0", args), /*with_cpu_op=*/false).has_value());
}
