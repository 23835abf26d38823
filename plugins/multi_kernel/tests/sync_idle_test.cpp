// Default mode S1 (docs/deviations.md): D2H and synchronous copies followed by GPU idle gaps,
// measured on a hand-built raw-trace GPU timeline (trace/gpu_events.csv columns).
#include <catch2/catch.hpp>

#include "sync_idle.hpp"

namespace mk = loupe::multi_kernel;

namespace {

struct Events {
  mk::RawTable table{
      {"uid", "kind", "name", "device", "stream", "ts_ns", "dur_ns", "linked", "launcher_uid",
       "launcher_name", "op_uid", "op_name", "memcpy_direction", "bytes"},
      {}};
  void kernel(long ts_us, long dur_us, const char* device = "0") {
    table.rows.push_back({"1", "kernel", "k", device, "7", std::to_string(ts_us * 1000),
                          std::to_string(dur_us * 1000), "True", "", "cudaLaunchKernel", "", "", "",
                          ""});
  }
  void copy(long ts_us, long dur_us, const char* direction, const char* launcher, const char* op) {
    table.rows.push_back({"2", "memcpy", "Memcpy", "0", "7", std::to_string(ts_us * 1000),
                          std::to_string(dur_us * 1000), "True", "", launcher, "", op, direction,
                          "4"});
  }
};

}  // namespace

TEST_CASE("multi_kernel S1: idle gaps after D2H and synchronous copies", "[multi_kernel]") {
  Events e;
  e.kernel(0, 100);
  e.copy(100, 5, "D2H", "cudaMemcpyAsync", "aten::_local_scalar_dense");  // gap 395 us
  e.kernel(500, 100);
  e.kernel(650, 50);                                           // gap 50 us: not a copy
  e.copy(700, 10, "H2D", "cudaMemcpyAsync", "aten::copy_");    // async H2D: no wait
  e.kernel(800, 100);                                          // gap 90 us
  e.copy(900, 5, "D2D", "hipMemcpyWithStream", "aten::item");  // synchronous: gap 95
  e.kernel(1000, 10);
  e.copy(1010, 5, "D2H", "cudaMemcpyAsync", "aten::copy_");  // last op: no gap after
  e.kernel(2000, 10, "1");                                   // another device: its own timeline
  const mk::SyncIdle s = mk::assess_sync_idle(&e.table);
  REQUIRE(s.evaluated);
  CHECK(s.copies == 3);
  CHECK(s.copies_before_idle == 2);
  CHECK(s.idle_after_ms == Approx(0.395 + 0.095));
  CHECK(s.total_idle_ms == Approx(0.395 + 0.050 + 0.090 + 0.095));
  CHECK(s.largest_gap_ms == Approx(0.395));
  REQUIRE(s.sources.size() == 2);
  CHECK(s.sources[0].op_name == "aten::_local_scalar_dense");
  CHECK(s.sources[1].launcher_name == "hipMemcpyWithStream");
  // 0.49 ms of a 1.015 ms span: reported, and the saving never exceeds the measured idle.
  CHECK(mk::sync_idle_reportable(s, 1.015));
  const auto savings = mk::sync_idle_savings(s, 1.015);
  CHECK(savings.high_ms == Approx(s.idle_after_ms));
  CHECK(savings.mid_ms < savings.high_ms);
  CHECK_FALSE(mk::sync_idle_reportable(s, 100.0));  // under 1% of the span
}

TEST_CASE("multi_kernel S1: without the raw-trace timeline nothing is claimed", "[multi_kernel]") {
  const mk::SyncIdle s = mk::assess_sync_idle(nullptr);
  CHECK_FALSE(s.evaluated);
  CHECK_FALSE(mk::sync_idle_reportable(s, 10.0));
  CHECK(mk::sync_idle_json(s, 10.0).find("details") != nullptr);
}

TEST_CASE("multi_kernel S1: the claim is capped by the host blocking cpu_idle measured",
          "[multi_kernel]") {
  mk::SyncIdle s;
  s.evaluated = true;
  s.copies = 3;
  s.copies_before_idle = 3;
  s.idle_after_ms = 40.0;
  CHECK(s.claimed_ms() == 40.0);  // without cpu_idle, the whole gaps after the copies
  loupe::Json metrics = loupe::Json::object();
  metrics["idle_breakdown"]["evaluated"] = true;
  metrics["idle_breakdown"]["by_cause"]["synchronization_ms"] = 2.5;
  s.host_blocked_ms = mk::cpu_idle_host_blocked_ms(metrics);
  REQUIRE(s.host_blocked_ms.has_value());
  CHECK(s.claimed_ms() == 2.5);
  const auto savings = mk::sync_idle_savings(s, 100.0);
  CHECK(savings.high_ms == 2.5);
  CHECK(savings.mid_ms == Approx(2.1875));
  CHECK(mk::sync_idle_reportable(s, 100.0));        // 2.5 % of the span
  CHECK_FALSE(mk::sync_idle_reportable(s, 400.0));  // 0.625 %: below the 1 % card gate
  // An attribution that was not evaluated (no raw trace for cpu_idle) caps nothing.
  metrics["idle_breakdown"]["evaluated"] = false;
  CHECK_FALSE(mk::cpu_idle_host_blocked_ms(metrics).has_value());
}
