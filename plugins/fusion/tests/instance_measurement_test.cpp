// Default-mode time accounting from measurements (docs/deviations.md, fusion M1): instances of
// a candidate found in a kernel timeline, grouped by the kernels they launch, and the estimate
// built from their measured time instead of first instance x instance_count.
#include <catch2/catch.hpp>

#include "estimate.hpp"
#include "instance_measurement.hpp"
#include "selection.hpp"

using namespace loupe::fusion;

namespace {

const Peaks kPeaks{5.3e12, 163, 708};

// An attention core: score GEMM (aten::bmm), softmax, value GEMM (aten::bmm).
struct TimelineBuilder {
  std::vector<KernelLaunch> launches;
  std::int64_t next_uid = 1000;
  std::int64_t next_op = 1;
  std::int64_t ts = 0;

  std::int64_t add(const std::string& name, const std::string& op, double dur_us,
                   bool new_op = true, const std::string& stream = "0/7") {
    KernelLaunch k;
    k.uid = next_uid++;
    k.name = name;
    k.stream = stream;
    k.ts_ns = ts;
    ts += static_cast<std::int64_t>(dur_us * 1000) + 500;
    k.dur_us = dur_us;
    k.op_uid = new_op ? next_op++ : next_op - 1;
    k.op_name = op;
    launches.push_back(k);
    return k.uid;
  }
  // One attention instance; returns the uids of its three kernels.
  std::vector<std::int64_t> attention(const std::string& gemm, double qk, double softmax,
                                      double pv) {
    return {add(gemm, "aten::bmm", qk), add("softmax_warp_forward", "aten::_softmax", softmax),
            add(gemm, "aten::bmm", pv)};
  }
};

Candidate attention_candidate(const std::vector<std::int64_t>& uids, std::int64_t instances,
                              const std::vector<double>& durs) {
  Candidate c;
  c.base_name = "SelfAttention";
  c.module_name = "nn.Module: SelfAttention_0";
  c.operation = c.base_name;
  c.instance_count = instances;
  const char* names[] = {"gemm_small", "softmax_warp_forward", "gemm_small"};
  const char* types[] = {"GEMM", "Unknown", "GEMM"};
  double total = 0.0;
  for (size_t i = 0; i < 3; ++i) {
    Kernel k;
    k.name = names[i];
    k.type = types[i];
    k.dur_us = durs[i];
    k.gpu_op_uid = uids[i];
    total += durs[i];
    c.kernels.push_back(k);
  }
  c.kernel_count = 3;
  c.total_us = total * static_cast<double>(instances);  // what the narrowing writes
  return c;
}

PerfLookup gemm_lookup() {
  PerfLookup l;
  l.add("gemm_small", std::nullopt, PerfEntry{10.0, 1.0, std::string("matrix_bf16")});
  l.add("gemm_large", std::nullopt, PerfEntry{100.0, 10.0, std::string("matrix_bf16")});
  return l;
}

}  // namespace

TEST_CASE("fusion M1: instances are found by launch ops and grouped by kernels", "[fusion]") {
  TimelineBuilder t;
  const auto first = t.attention("gemm_small", 10, 5, 10);  // cheap instance first
  t.add("ew_add_kernel", "aten::add", 3);
  t.attention("gemm_small", 11, 6, 9);
  t.attention("gemm_large", 400, 900, 300);  // the expensive instances come later
  t.attention("gemm_large", 410, 880, 310);
  // Same ops but the softmax shares the GEMM's op: not an instance.
  t.add("gemm_small", "aten::bmm", 10);
  t.add("softmax_warp_forward", "aten::_softmax", 5, false);
  t.add("gemm_small", "aten::bmm", 10);
  // An instance on another stream does not continue this stream's runs.
  t.add("gemm_small", "aten::bmm", 10, true, "0/9");
  const KernelTimeline timeline(t.launches);

  const Candidate c = attention_candidate(first, 4, {10, 5, 10});
  const InstanceMeasurement m = measure_instances(c, &timeline);
  REQUIRE(m.status == MeasurementStatus::Measured);
  CHECK(m.matched_instances == 4);
  REQUIRE(m.groups.size() == 2);
  CHECK(m.groups[0].kernel_names[0] == "gemm_small");
  CHECK(m.groups[0].instances == 2);
  CHECK(m.groups[0].total_us() == Approx(51.0));
  CHECK(m.groups[1].instances == 2);
  CHECK(m.groups[1].dur_us[1] == Approx(1780.0));
  CHECK(m.total_us == Approx(51.0 + 3200.0));

  SECTION("the estimate is the measured time, never first instance x count") {
    EstimateOptions o;
    o.measured_time = true;
    const auto r = standalone_estimate(c, 0, gemm_lookup(), kPeaks, 10.0, o, &m);
    REQUIRE(r.estimate);
    const Estimate& e = *r.estimate;
    CHECK(e.time_source == TimeSource::MeasuredInstances);
    CHECK(e.time_ms == Approx(3.251));  // 100 us x 4 would be the extrapolation: 0.1 ms
    CHECK(e.measured_instances == 4);
    // The saving of a GEMM + softmax + GEMM core is the measured softmax time.
    CHECK(e.savings_high_ms == Approx((5 + 6 + 900 + 880) / 1000.0));
    CHECK(e.savings_high_ms <= e.time_ms);
    REQUIRE(e.groups.size() == 2);
    CHECK(e.groups[1].savings_high_ms == Approx(1.78));
    CHECK(e.impact_high == Approx(17.91).epsilon(0.001));
  }
  SECTION("without a timeline the narrowed total is not trusted") {
    EstimateOptions o;
    o.measured_time = true;
    const Candidate big = attention_candidate(first, 4, {100, 500, 100});
    CHECK(total_is_first_instance_scaled(big));
    const InstanceMeasurement none = measure_instances(big, nullptr);
    CHECK(none.status == MeasurementStatus::NoTimeline);
    const auto r = standalone_estimate(big, 0, gemm_lookup(), kPeaks, 1.0, o, &none);
    REQUIRE(r.estimate);
    CHECK(r.estimate->time_source == TimeSource::FirstInstanceOnly);
    CHECK(r.estimate->time_ms == Approx(0.7));  // not 4 x 0.7
    CHECK(r.estimate->measured_instances == 1);
  }
}

TEST_CASE("fusion M1: a sequence found more often than the module ran is ambiguous", "[fusion]") {
  TimelineBuilder t;
  const auto first = t.attention("gemm_small", 10, 5, 10);
  t.attention("gemm_small", 10, 5, 10);
  t.attention("gemm_small", 10, 5, 10);
  const KernelTimeline timeline(t.launches);
  const Candidate c = attention_candidate(first, 2, {10, 5, 10});
  const InstanceMeasurement m = measure_instances(c, &timeline);
  CHECK(m.status == MeasurementStatus::Ambiguous);
  CHECK(m.groups.empty());

  Candidate missing = c;
  missing.kernels[1].gpu_op_uid = 999999;
  CHECK(measure_instances(missing, &timeline).status == MeasurementStatus::FirstInstanceMissing);
}

TEST_CASE("fusion M1: the findings' savings together stay below the run's total", "[fusion]") {
  std::vector<Candidate> candidates(3);
  std::vector<Estimate> sorted;
  for (size_t i = 0; i < 3; ++i) {
    candidates[i].operation = candidates[i].base_name = "M" + std::to_string(i);
    Estimate e;
    e.candidate = i;
    e.operation = candidates[i].operation;
    e.savings_high_ms = 4.0;
    sorted.push_back(e);
  }
  SelectionOptions o;
  o.run_total_ms = 10.0;
  const Selection s = select_estimates(sorted, candidates, o);
  CHECK(s.kept.size() == 2);
  REQUIRE(s.rejected.size() == 1);
  CHECK(s.rejected[0].rule == "I2");
}

namespace {

// A MoE layer's expert matmuls: an up projection (fused activation), a down projection and the
// trailing kernel of the down call, all launched under one vllm::moe_forward op.
std::vector<std::int64_t> moe_layer(TimelineBuilder& t, const std::string& tail) {
  const std::int64_t up = t.add("mm_up_swiglu", "vllm::moe_forward", 300);
  const std::int64_t down = t.add("mm_down", "vllm::moe_forward", 150, false);
  const std::int64_t after = t.add(tail, "vllm::moe_forward", 120, false);
  return {up, down, after};
}

Candidate down_call(const std::vector<std::int64_t>& layer, const char* tail, const char* type) {
  Candidate c;
  c.base_name = c.operation = c.module_name = "triton_kernels/matmul_ogs.py(352): matmul_ogs";
  c.instance_count = 3;
  c.kernel_count = 2;
  Kernel down;
  down.name = "mm_down";
  down.type = "GEMM";
  down.dur_us = 150;
  down.gpu_op_uid = layer[1];
  Kernel after;
  after.name = tail;
  after.type = type;
  after.dur_us = 120;
  after.gpu_op_uid = layer[2];
  c.kernels = {down, after};
  return c;
}

PerfLookup moe_lookup() {
  PerfLookup l;
  l.add("mm_up_swiglu", std::nullopt, PerfEntry{100.0, 10.0, std::string("matrix_bf16")});
  l.add("mm_down", std::nullopt, PerfEntry{100.0, 10.0, std::string("matrix_bf16")});
  return l;
}

}  // namespace

TEST_CASE("fusion M2: a group that launches another kernel where the saving is gains nothing",
          "[fusion]") {
  TimelineBuilder t;
  const auto first = moe_layer(t, "bias_add_kernel");
  moe_layer(t, "bias_add_kernel");
  moe_layer(t, "bias_add_kernel");
  const KernelTimeline timeline(t.launches);
  const Candidate c = down_call(first, "bias_add_kernel", "Elementwise");
  const InstanceMeasurement m = measure_instances(c, &timeline);
  // The launching op is the same for all three matmuls, so the later layers match as
  // (up, down) pairs: the measurement cannot tell the calls apart.
  REQUIRE(m.status == MeasurementStatus::Measured);
  REQUIRE(m.groups.size() == 2);
  CHECK(m.groups[1].kernel_names == std::vector<std::string>{"mm_up_swiglu", "mm_down"});
  CHECK(m.groups[1].instances == 2);

  EstimateOptions o;
  o.measured_time = true;
  const auto r = standalone_estimate(c, 0, moe_lookup(), kPeaks, 2.0, o, &m);
  REQUIRE(r.estimate);
  const Estimate& e = *r.estimate;
  CHECK(e.time_ms == Approx((150 + 120 + 2 * (300 + 150)) / 1000.0));
  // Only the first layer's trailing kernel is removable; the (up, down) groups' second position
  // is a GEMM, not the kernel the estimate removes (before: 0.12 + 2 x 0.15 = 0.42 ms).
  CHECK(e.savings_high_ms == Approx(0.12));
  REQUIRE(e.groups.size() == 2);
  CHECK(e.groups[1].savings_high_ms == 0.0);
}

TEST_CASE("fusion M2: a GEMM followed by a MoE finalize kernel is no epilogue (G11)", "[fusion]") {
  TimelineBuilder t;
  const auto first = moe_layer(t, "_finalize_matmul_scatter_bf16");
  const Candidate c = down_call(first, "_finalize_matmul_scatter_bf16", "MoE Finalize");
  const KernelTimeline timeline(t.launches);
  const InstanceMeasurement m = measure_instances(c, &timeline);
  EstimateOptions o;
  o.measured_time = true;
  o.moe_finalize_not_epilogue = true;
  const auto r = standalone_estimate(c, 0, moe_lookup(), kPeaks, 0.5, o, &m);
  CHECK_FALSE(r.estimate);
  CHECK(r.rejection.rule == "G11");
  // Compat mode (TraceLens) keeps its estimate.
  EstimateOptions compat;
  const auto kept = standalone_estimate(c, 0, moe_lookup(), kPeaks, 0.5, compat, nullptr);
  CHECK(kept.rejection.rule != "G11");
}
