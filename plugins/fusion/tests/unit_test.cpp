// Unit tests of the fusion analyzer logic against the spec's exact cases (docs/contracts/fusion.md
// §6: T1-T11, T24) plus the default-mode corrections that live in the logic library.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "confidence.hpp"
#include "estimate.hpp"
#include "filter.hpp"
#include "findings_builder.hpp"
#include "loupe/python_format.hpp"
#include "metrics.hpp"
#include "patterns.hpp"
#include "perf_lookup.hpp"
#include "roofline.hpp"
#include "selection.hpp"

using namespace loupe::fusion;
using loupe::Json;

namespace {

const Peaks kMI300X{5.3e12, 163, 708};

PerfEntry entry(double dm, double gf, const char* spec) { return {dm, gf, std::string(spec)}; }

// The synthetic perf CSV of spec §6 (fixtures/ups.csv), row by row.
PerfLookup ups_lookup() {
  PerfLookup l;
  auto row = [&](const char* kernel, const char* dims, std::optional<PerfEntry> e) {
    PerfRow r;
    r.kernel_details_summary = std::string("[{'name': '") + kernel + "', 'stream': 0}]";
    r.input_dims = std::string(dims);
    r.entry = e.value_or(PerfEntry{});
    l.add_row(r);
  };
  row("Cijk_gemm_A", "((1024, 4096), (4096, 4096))", entry(40.0, 34.359738368, "matrix_bf16"));
  row("ew_add_kernel", "((1024, 4096), (1024, 4096))", entry(24.0, 0.004194304, "vector_bf16"));
  row("ew_add_kernel", "((8, 8), (8, 8))", entry(0.5, 0.000064, "vector_bf16"));
  row("ew_gelu_kernel", "((1024, 4096),)", entry(16.0, 0.04, "vector_bf16"));
  row("cat_kernel", "(((4, 4), (4, 4)), ())", std::nullopt);
  row("pow_kernel", "((16, 1024),)", entry(8.0, 0.016, "vector_fp32"));
  row("reduce_mean_kernel", "((16, 1024),)", entry(4.0, 0.016, "vector_fp32"));
  row("rsqrt_kernel", "((16, 1),)", entry(0.001, 0.000016, "vector_fp32"));
  row("mul_kernel", "((16, 1024), (16, 1))", entry(8.0, 0.016, "vector_fp32"));
  row("rmsnorm_fwd_kernel", "((16, 1024),)", entry(8.0, 0.05, "vector_fp32"));
  row("triton_poi_fused_add_0", "((16, 1024),)", entry(8.0, 0.05, "vector_fp32"));
  return l;
}

Kernel k(const char* name, const char* type, double dur) {
  Kernel out;
  out.name = name;
  out.type = type;
  out.dur_us = dur;
  return out;
}

Candidate cand(const char* base, std::int64_t ic, std::vector<Kernel> kernels,
               const char* module = nullptr) {
  Candidate c;
  c.base_name = base;
  c.module_name = module ? module : std::string("nn.Module: ") + base + "_0";
  c.operation = base;
  c.instance_count = ic;
  c.kernels = std::move(kernels);
  c.kernel_count = static_cast<std::int64_t>(c.kernels.size());
  return c;
}

// The estimate as json.dumps(...) prints it without affected_gpu_kernels (t_est.out lines).
std::string golden_line(const Estimate& e, const Candidate& c) {
  Json j = estimate_json(e, c, false);
  auto& members = j.as_object();
  members.erase(std::remove_if(members.begin(), members.end(),
                               [](const auto& m) { return m.first == "affected_gpu_kernels"; }),
                members.end());
  return loupe::dump_python_json(j, -1);
}

EstimateResult standalone(const Candidate& c, const EstimateOptions& o = {}) {
  static const PerfLookup lookup = ups_lookup();
  return standalone_estimate(c, 0, lookup, kMI300X, 10.0, o);
}

}  // namespace

TEST_CASE("fusion T24: Python rounding and the blend weight", "[fusion]") {
  using loupe::py::round_half_even;
  CHECK(round_half_even(2.625, 2) == 2.62);
  CHECK(round_half_even(0.125, 2) == 0.12);
  CHECK(round_half_even(2.675, 2) == 2.67);
  CHECK(round_half_even(1.005, 2) == 1.0);
  CHECK(round_half_even(3.3249999999999997, 2) == 3.32);
  CHECK(round_half_even(2.6250000000000004, 2) == 2.63);
  CHECK(round_half_even(3.0624999999999996, 2) == 3.06);
  CHECK(round_half_even(3.4999999999999996, 2) == 3.5);
  CHECK(loupe::py::float_repr(1.0 - kOverlapEfficiency) == "0.15000000000000002");
}

TEST_CASE("fusion T1: roofline savings of an elementwise group", "[fusion]") {
  auto ek = [](double dur, std::optional<double> dm, std::optional<double> in,
               std::optional<double> out, std::optional<double> gf) {
    EnrichedKernel e;
    e.name = "ew";
    e.type = "Elementwise";
    e.dur_us = dur;
    e.data_moved_mb = dm;
    e.data_in_mb = in;
    e.data_out_mb = out;
    e.gflops = gf;
    e.has_perf_data = dm.has_value();
    return e;
  };
  const auto a = ek(50, 30, 20, 10, 0.01);
  const auto b = ek(40, 20, std::nullopt, std::nullopt, 0.02);
  const auto c = ek(30, 12, std::nullopt, std::nullopt, std::nullopt);
  CHECK(roofline_savings_us({a, b, c}, kMI300X, 100.0) == 115.06673226067832);
  const auto unmodeled = ek(25, std::nullopt, std::nullopt, std::nullopt, std::nullopt);
  CHECK(roofline_savings_us({a, unmodeled, b, c}, kMI300X, 100.0) == 115.06673226067832);
  CHECK(roofline_savings_us({a, b, c}, kMI300X, 75.0) == 113.42230968090442);
  CHECK(roofline_savings_us({ek(10, 0.0, std::nullopt, std::nullopt, std::nullopt)}, kMI300X,
                            100.0) == 0.0);
  // Q5 (default mode): MiB bytes make the fused time longer, so the savings shrink.
  CHECK(roofline_savings_us({a, b, c}, kMI300X, 100.0, kBytesPerMiB) < 115.06673226067832);
}

TEST_CASE("fusion T2-T7: standalone estimates and gates", "[fusion]") {
  SECTION("T2 GEMM epilogue") {
    const auto c = cand("Linear", 10,
                        {k("Cijk_gemm_A", "GEMM", 100), k("ew_add_kernel", "Elementwise", 20),
                         k("ew_gelu_kernel", "Elementwise", 15)});
    const auto r = standalone(c);
    REQUIRE(r.estimate);
    CHECK(
        golden_line(*r.estimate, c) ==
        R"({"operation": "Linear", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 3.06, "impact_score_low": 2.63, "impact_score_high": 3.5, "estimation": "full", "bound_type": "compute", "time_ms": 1.35, "instance_count": 10, "kernel_count": 3, "modeled_kernel_count": 3, "confidence": "low", "fusion_type": "matrix_compute"})");
    const auto groups = split_into_subgroups(r.estimate->kernels);
    REQUIRE(groups.size() == 1);
    CHECK(groups[0].kind == SubgroupKind::GemmEpilogue);
  }
  SECTION("T3 RMSNorm chain") {
    auto kernels = std::vector<Kernel>{
        k("pow_kernel", "Elementwise", 12), k("reduce_mean_kernel", "Unknown", 8),
        k("rsqrt_kernel", "Elementwise", 2), k("mul_kernel", "Elementwise", 12)};
    kernels[0].data_in_mb = 8.0, kernels[0].data_out_mb = 8.0;
    kernels[1].data_in_mb = 4.0, kernels[1].data_out_mb = 0.0;
    kernels[2].data_in_mb = 0.0005, kernels[2].data_out_mb = 0.0005;
    kernels[3].data_in_mb = 10.666666666666666, kernels[3].data_out_mb = 5.333333333333333;
    const auto c = cand("LlamaRMSNorm", 64, kernels, "nn.Module: LlamaRMSNorm_3");
    const auto r = standalone(c);
    REQUIRE(r.estimate);
    CHECK(
        golden_line(*r.estimate, c) ==
        R"({"operation": "LlamaRMSNorm", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 17.61, "impact_score_low": 15.09, "impact_score_high": 20.12, "estimation": "full", "bound_type": "memory", "time_ms": 2.176, "instance_count": 64, "kernel_count": 4, "modeled_kernel_count": 4, "confidence": "high", "fusion_type": "memory_bound"})");
    CHECK(classify_pattern(c, *r.estimate).pattern == Pattern::RMSNorm);
  }
  SECTION("T4 gates") {
    CHECK(standalone(cand("S3", 10, {k("Cijk_gemm_A", "GEMM", 100), k("Cijk_gemm_A", "GEMM", 100)}))
              .rejection.rule == "G4");
    CHECK(standalone(cand("S4", 10,
                          {k("Cijk_gemm_A", "GEMM", 100), k("rmsnorm_fwd_kernel", "RMSNorm", 50)}))
              .rejection.rule == "G6");
    CHECK(standalone(cand("S5", 10,
                          {k("ew_add_kernel", "Elementwise", 100),
                           k("triton_poi_fused_add_0", "Unknown", 50)}))
              .rejection.rule == "G5");
    auto fused = cand(
        "S6", 10, {k("ew_add_kernel", "Elementwise", 100), k("ew_gelu_kernel", "Elementwise", 50)});
    fused.has_fused_kernel = true;
    CHECK(standalone(fused).rejection.rule == "G2");
    CHECK(standalone(cand("S7", 10, {k("ew_add_kernel", "Elementwise", 100)})).rejection.rule ==
          "G1");
    CHECK(standalone(cand("S8", 10,
                          {k("ew_add_kernel", "E", 10), k("ew_gelu_kernel", "E", 10),
                           k("pow_kernel", "E", 10), k("x1", "E", 10), k("x2", "E", 10)}))
              .rejection.rule == "G7");
    CHECK(standalone(cand("S10", 1,
                          {k("Cijk_gemm_A", "GEMM", 100), k("ew_add_kernel", "Elementwise", 50)}))
              .rejection.rule == "G9");
    CHECK(standalone(cand("S11", 1,
                          {k("Cijk_gemm_A", "GEMM", 1000), k("ew_add_kernel", "Elementwise", 150)}))
              .rejection.rule == "G10");
    CHECK(standalone(
              cand("S14", 1,
                   {k("ew_add_kernel", "Elementwise", 0), k("ew_gelu_kernel", "Elementwise", 0)}))
              .rejection.rule == "G8");
  }
  SECTION("T4 S9 half coverage passes") {
    const auto c = cand("Q", 100,
                        {k("ew_add_kernel", "Elementwise", 30), k("cat_kernel", "Elementwise", 20),
                         k("unk1", "Unknown", 20), k("ew_gelu_kernel", "Elementwise", 30)});
    const auto r = standalone(c);
    REQUIRE(r.estimate);
    CHECK(
        golden_line(*r.estimate, c) ==
        R"({"operation": "Q", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 49.16, "impact_score_low": 42.14, "impact_score_high": 56.19, "estimation": "partial", "bound_type": "memory", "time_ms": 10.0, "instance_count": 100, "kernel_count": 4, "modeled_kernel_count": 2, "confidence": "medium", "fusion_type": "memory_bound", "warning": "2 of 4 kernels lack perf models; savings estimate uses trace time for unmodeled kernels"})");
  }
  SECTION("T5 leading elementwise then GEMM (Q12)") {
    const auto c = cand("Pre", 10,
                        {k("ew_add_kernel", "Elementwise", 40),
                         k("ew_gelu_kernel", "Elementwise", 30), k("Cijk_gemm_A", "GEMM", 100)});
    const auto r = standalone(c);
    REQUIRE(r.estimate);
    CHECK(
        golden_line(*r.estimate, c) ==
        R"({"operation": "Pre", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 5.79, "impact_score_low": 4.96, "impact_score_high": 6.62, "estimation": "full", "bound_type": "memory", "time_ms": 1.7, "instance_count": 10, "kernel_count": 3, "modeled_kernel_count": 3, "confidence": "low", "fusion_type": "matrix_compute"})");
  }
  SECTION("T6 MLP with two epilogues") {
    const auto c = cand("LlamaMLP", 8,
                        {k("Cijk_gemm_A", "GEMM", 100), k("ew_gelu_kernel", "Elementwise", 20),
                         k("Cijk_gemm_A", "GEMM", 100), k("ew_add_kernel", "Elementwise", 25)});
    const auto r = standalone(c);
    REQUIRE(r.estimate);
    CHECK(
        golden_line(*r.estimate, c) ==
        R"({"operation": "LlamaMLP", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 3.15, "impact_score_low": 2.7, "impact_score_high": 3.6, "estimation": "full", "bound_type": "compute", "time_ms": 1.96, "instance_count": 8, "kernel_count": 4, "modeled_kernel_count": 4, "confidence": "high", "fusion_type": "matrix_compute"})");
    // Q3: compat maps all four kernels (GEMM included); default mode only the two epilogues.
    CHECK(kernel_map({*r.estimate}, true).size() == 3);
    CHECK(kernel_map({*r.estimate}, false).size() == 2);
    CHECK(kernel_map({*r.estimate}, false).find("Cijk_gemm_A") == nullptr);
  }
  SECTION("T7 sibling keys") {
    const auto c =
        cand("transformers/x.py(10): forward", 20,
             {k("ew_add_kernel", "Elementwise", 30), k("ew_gelu_kernel", "Elementwise", 25)},
             "transformers/x.py(10): forward");
    const auto r = standalone(c);
    REQUIRE(r.estimate);
    CHECK(
        golden_line(*r.estimate, c) ==
        R"({"operation": "transformers/x.py(10): forward", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 8.96, "impact_score_low": 7.68, "impact_score_high": 10.24, "estimation": "full", "bound_type": "memory", "time_ms": 1.1, "instance_count": 20, "kernel_count": 2, "modeled_kernel_count": 2, "confidence": "low", "fusion_type": "memory_bound"})");
  }
}

TEST_CASE("fusion Q1: default mode scales the savings fraction by the real total", "[fusion]") {
  // Same kernels as T6, but the accumulated total is half of first-instance x count.
  auto c = cand("LlamaMLP", 8,
                {k("Cijk_gemm_A", "GEMM", 100), k("ew_gelu_kernel", "Elementwise", 20),
                 k("Cijk_gemm_A", "GEMM", 100), k("ew_add_kernel", "Elementwise", 25)});
  c.total_us = 3920.0;  // 2 x 1960
  EstimateOptions o;
  o.measured_time = true;
  const auto r = standalone(c, o);
  REQUIRE(r.estimate);
  CHECK(r.estimate->time_ms == 3.92);
  CHECK(r.estimate->impact_high == 7.2);
  CHECK(r.estimate->impact_mid == 6.3);
}

TEST_CASE("fusion T8: comparative estimates", "[fusion]") {
  auto comp = [](const char* base, std::int64_t ic, std::vector<Kernel> t1, double total1,
                 double total2, std::optional<int> delta) {
    Candidate c = cand(base, ic, std::move(t1));
    c.total_us = total1;
    c.total_us_trace2 = total2;
    c.delta = delta ? Json(*delta) : Json(0);
    return c;
  };
  const auto c1 =
      comp("LlamaAttention", 32,
           {k("Cijk_qk", "GEMM", 50), k("softmax_warp_forward", "Unknown", 20),
            k("Cijk_pv", "GEMM", 50), k("ew_mul", "Unknown", 10), k("ew_add", "Unknown", 10)},
           4480, 2240, 3);
  const auto r1 = comparative_estimate(c1, 0, 10.0, {});
  REQUIRE(r1.estimate);
  CHECK(
      loupe::dump_python_json(estimate_json(*r1.estimate, c1, false), -1) ==
      R"({"operation": "LlamaAttention", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 19.6, "impact_score_low": 16.8, "impact_score_high": 22.4, "estimation": "measured", "bound_type": "compute", "time_ms": 4.48, "instance_count": 32, "kernel_count": 5, "modeled_kernel_count": 5, "delta_kernel_count": 3, "confidence": "high", "affected_gpu_kernels": ["Cijk_qk", "softmax_warp_forward", "Cijk_pv", "ew_mul", "ew_add"], "fusion_type": "matrix_compute"})");
  const auto c5 = comp("aten::rotary", 4,
                       {k("neg_kernel", "Unknown", 1), k("CatArrayBatchedCopy", "Unknown", 1),
                        k("mul", "Unknown", 1), k("add", "Unknown", 1)},
                       2000, 1000, std::nullopt);
  const auto r5 = comparative_estimate(c5, 0, 10.0, {});
  REQUIRE(r5.estimate);
  CHECK(
      loupe::dump_python_json(estimate_json(*r5.estimate, c5, false), -1) ==
      R"({"operation": "aten::rotary", "category": "kernel_fusion", "type": "kernel_fusion", "impact_score": 8.75, "impact_score_low": 7.5, "impact_score_high": 10.0, "estimation": "measured", "bound_type": "memory", "time_ms": 2.0, "instance_count": 4, "kernel_count": 4, "modeled_kernel_count": 4, "delta_kernel_count": 0, "confidence": "high", "affected_gpu_kernels": ["neg_kernel", "CatArrayBatchedCopy", "mul", "add"], "fusion_type": "memory_bound"})");
  const std::vector<Kernel> one = {k("a", "Unknown", 1)};
  CHECK(comparative_estimate(comp("C2", 1, one, 100, 200, 1), 0, 10.0, {}).rejection.rule == "C2");
  CHECK(comparative_estimate(comp("C3", 1, one, 190, 100, 1), 0, 10.0, {}).rejection.rule == "C3");
  CHECK(comparative_estimate(comp("C4", 1, one, 290, 100, 1), 0, 10.0, {}).rejection.rule == "C4");
  CHECK(comparative_estimate(comp("C6", 1, {}, 2000, 100, 1), 0, 10.0, {}).rejection.rule == "C1");
}

TEST_CASE("fusion T9: confidence table", "[fusion]") {
  auto ek = [](const char* name, const char* type = "Unknown", const char* spec = nullptr) {
    EnrichedKernel e;
    e.name = name;
    e.type = type;
    if (spec) e.compute_spec = spec;
    return e;
  };
  auto level = [](const char* base, const char* module, std::vector<EnrichedKernel> ks) {
    return classify_confidence(base, module, ks, {}).level;
  };
  const std::vector<EnrichedKernel> attn = {ek("Cijk_a", "GEMM"), ek("softmax_fwd"),
                                            ek("Cijk_b", "GEMM")};
  CHECK(level("SelfAttention", "", attn) == "high");
  CHECK(level("Block", "", attn) == "medium");
  CHECK(level("MLP", "", {ek("Cijk_a", "GEMM"), ek("ew")}) == "medium");
  CHECK(level("Foo", "", {ek("pow"), ek("rsqrt_kernel")}) == "medium");
  CHECK(level("Foo", "", {ek("a"), ek("b"), ek("c")}) == "medium");
  CHECK(level("Foo", "", {ek("a"), ek("b")}) == "low");
  CHECK(level("Foo", "", {ek("neg_kernel"), ek("cat_something")}) == "medium");
  CHECK(level("Foo", "", {ek("neg_kernel"), ek("concat")}) == "low");
  CHECK(level("Foo", "nn.Module: SDPA_wrapper", {ek("a")}) == "medium");
  CHECK(level("Foo", "",
              {ek("weird", "Unknown", "matrix_bf16"), ek("x"),
               ek("weird2", "Unknown", "matrix_fp8")}) == "medium");
  CHECK(level("attention_rmsnorm", "", {ek("a")}) == "medium");
  CHECK(level("SiluAndMul", "", {ek("a"), ek("b")}) == "medium");
  CHECK(level("property_fn", "", {ek("a"), ek("b")}) == "medium");
  CHECK(level("X", "", {ek("a", "gemm"), ek("b", "MoE GEMM (CK)"), ek("c")}) == "medium");
  CHECK(level("X", "", {ek("a", "CONV"), ek("b")}) == "low");
  CHECK(level("", "nn.Module: Mlp_1", {ek("a"), ek("b")}) == "medium");
  CHECK(level("MyAttention", "", {ek("a"), ek("b"), ek("c")}) == "high");
  CHECK(is_norm(ek("x", "LayerNorm")));
  CHECK_FALSE(is_norm(ek("x", "RMSNorm")));
  CHECK(is_norm(ek("Fused_RMSNorm_k")));
  CHECK(is_matrix(ek("x", "Causal Conv1D")));
}

TEST_CASE("fusion Q13: default mode matches hint tokens and needs agreeing signals", "[fusion]") {
  ConfidenceOptions strict{true, true};
  CHECK_FALSE(name_signal("property_fn", "", true));
  CHECK(name_signal("property_fn", "", false) == std::optional<std::string>("rope"));
  CHECK(name_signal("Qwen2RMSNorm", "nn.Module: Qwen2RMSNorm_0", true) ==
        std::optional<std::string>("norm"));
  CHECK(name_signal("LlamaMLP", "", true) == std::optional<std::string>("mlp"));
  CHECK(name_signal("x.py(68): apply_rotary_pos_emb", "", true) ==
        std::optional<std::string>("rope"));
  CHECK(name_signal("", "nn.Module: SDPA_wrapper", true) ==
        std::optional<std::string>("attention"));
  CHECK(hint_matches_token("SiluAndMul", "silu"));
  CHECK_FALSE(hint_matches_token("europe", "rope"));
  EnrichedKernel e;
  e.name = "a";
  // "MyAttention" with an elementwise chain: high in TraceLens, medium when signals must agree.
  CHECK(classify_confidence("MyAttention", "", {e, e, e}, {}).level == "high");
  CHECK(classify_confidence("MyAttention", "", {e, e, e}, strict).level == "medium");
}

TEST_CASE("fusion T10: filter and dedup", "[fusion]") {
  auto c = [](const char* name, std::optional<std::int64_t> ic, std::optional<std::int64_t> kc,
              double total) {
    Candidate out;
    out.module_name = name;
    out.operation = name;
    out.instance_count = ic;
    out.kernel_count = kc;
    out.total_us = total;
    return out;
  };
  const std::vector<Candidate> in = {
      c("Big_0", 1, 16, 100000), c("Cap_0", 1, 15, 100000),        c("Small_0", 4, 3, 199.99),
      c("Edge_0", 4, 3, 200.0),  c("LongName_0", 8, 4, 5000.04),   c("Short_0", 8, 4, 4999.96),
      c("Same_0", 8, 4, 5000.0), c("NoKC_0", 2, std::nullopt, 800)};
  auto names = [](const std::vector<Candidate>& v) {
    std::vector<std::string> out;
    for (const auto& x : v) out.push_back(x.module_name);
    return out;
  };
  const std::vector<std::string> expected = {"Cap_0", "Edge_0", "Same_0", "NoKC_0"};
  CHECK(names(filter_and_dedup(in, 10.0)) == expected);
  CHECK(names(filter_and_dedup(in, 0.0)) == expected);
  CHECK(code_point_length("\xC3\xA9t\xC3\xA9") == 3);
}

TEST_CASE("fusion T11: perf lookup and shape keys", "[fusion]") {
  const PerfLookup l = ups_lookup();
  CHECK(l.kernel_count() == 10);
  auto dm = [&](const char* name, const Json& dims) {
    const PerfEntry* e = l.find(name, loupe::compute::first_shape_key(dims));
    return e && e->data_moved_mb ? *e->data_moved_mb : -1.0;
  };
  Json small = Json::array();
  for (int i = 0; i < 2; ++i) {
    Json d = Json::array();
    d.push_back(8);
    d.push_back(8);
    small.push_back(d);
  }
  CHECK(dm("ew_add_kernel", small) == 0.5);
  CHECK(dm("ew_add_kernel", Json()) == 24.0);
  Json other = Json::array();
  Json three = Json::array();
  three.push_back(3);
  three.push_back(3);
  other.push_back(three);
  CHECK(dm("ew_add_kernel", other) == 24.0);
  CHECK(dm("ew_add_kernel_with_suffix", Json()) == 24.0);
  CHECK(dm("ew_gelu", Json()) == 16.0);
  CHECK(l.find("zzz", std::nullopt) == nullptr);
  // cat_kernel: all values None; a nested input dims (Q8) finds it instead of crashing.
  Json nested = Json::array();
  nested.push_back(small);
  nested.push_back(Json::array());
  const PerfEntry* cat = l.find("cat_kernel", loupe::compute::first_shape_key(nested));
  REQUIRE(cat != nullptr);
  CHECK_FALSE(cat->data_moved_mb);

  // The shape-key vectors themselves are in sdk/compute/tests/shape_key_test.cpp.
  CHECK(kernel_names_in_summary("[{'name': 'a<1>', 'x': 1}, {'name':\n'b'}, {'name': ''}]") ==
        std::vector<std::string>{"a<1>", "b"});
}

TEST_CASE("fusion Q2: default mode keeps non-overlapping candidates", "[fusion]") {
  auto with_uids = [](Candidate c, std::vector<std::int64_t> uids) {
    for (size_t i = 0; i < uids.size(); ++i) c.kernels[i].gpu_op_uid = uids[i];
    return c;
  };
  const std::vector<Candidate> cs = {
      with_uids(cand("Outer", 10,
                     {k("ew_add_kernel", "Elementwise", 40), k("ew_gelu_kernel", "Elementwise", 30),
                      k("mul_kernel", "Elementwise", 10)}),
                {1, 2, 3}),
      with_uids(cand("Inner", 10,
                     {k("ew_gelu_kernel", "Elementwise", 30), k("mul_kernel", "Elementwise", 10)}),
                {2, 3}),
      with_uids(cand("Sequential", 10,
                     {k("ew_add_kernel", "Elementwise", 40), k("pow_kernel", "Elementwise", 30)}),
                {7, 8}),
  };
  std::vector<Estimate> sorted;
  for (size_t i = 0; i < cs.size(); ++i) {
    auto r = standalone_estimate(cs[i], i, ups_lookup(), kMI300X, 10.0, {});
    REQUIRE(r.estimate);
    sorted.push_back(*r.estimate);
  }
  const Selection s = select_estimates(sorted, cs, {});
  REQUIRE(s.kept.size() == 1);
  CHECK(s.kept[0].operation == "Outer");
  REQUIRE(s.rejected.size() == 2);
  CHECK(s.rejected[0].rule == "Q2");
  CHECK(s.rejected[1].rule == "R5");
}

TEST_CASE("fusion findings: cards, blocks and the short forms", "[fusion]") {
  const auto c = cand("LlamaMLP", 8,
                      {k("Cijk_gemm_A", "GEMM", 100), k("ew_gelu_kernel", "Elementwise", 20),
                       k("Cijk_gemm_A", "GEMM", 100), k("ew_add_kernel", "Elementwise", 25)});
  const std::vector<Candidate> cs = {c};
  const auto r = standalone_estimate(c, 0, ups_lookup(), kMI300X, 10.0, {});
  REQUIRE(r.estimate);
  FindingsContext ctx;
  ctx.baseline_ms = 10.0;
  ctx.raw_candidate_count = 1;
  ctx.candidates = &cs;
  const auto doc = build_findings({*r.estimate}, ctx);
  REQUIRE(doc.recommendations.size() == 1);
  CHECK(doc.recommendations[0].title == "Unfused GELU (1.96 ms extrapolated: first instance x 8)");
  CHECK(doc.recommendations[0].impact->text ==
        "impact_score: 3.15 (perf-model coverage 4/4 kernels)");
  CHECK(doc.recommendations[0].confidence->level == "High");
  CHECK(doc.recommendations[0].insight.find(
            "`nn.Module: LlamaMLP_0` launches 4 separate GPU kernels "
            "per instance (2 GEMM, 2 Elementwise) across 8 instances.") == 0);
  for (const char* banned : {"CUDA", "HIP", "NCCL", "RCCL", "torch.compile", "Inductor"}) {
    CHECK(doc.recommendations[0].insight.find(banned) == std::string::npos);
    CHECK(doc.recommendations[0].action.find(banned) == std::string::npos);
  }
  REQUIRE(doc.details.size() == 1);
  CHECK(doc.details[0].rank == 1);
  REQUIRE(doc.details[0].estimate);
  CHECK(doc.details[0].estimate->bullets[2] == "Coverage: 4 of 4 kernels modelled");
  REQUIRE(doc.trailing_sections.size() == 1);
  CHECK(doc.trailing_sections[0].heading == "Impact Summary");

  const auto empty = build_findings({}, ctx);
  CHECK(empty.status == loupe::findings::Status::NoData);
  CHECK(empty.message == "No kernel fusion opportunities detected.");
  const auto error = error_findings("x.json: bad\nthing", false);
  CHECK(error.status == loupe::findings::Status::Error);
  CHECK(error.message == "x.json: bad thing");

  CHECK(loupe::findings::table_cell(std::string(70, 'a'), kCellChars) ==
        std::string(60, 'a') + "...");
  CHECK(loupe::findings::table_cell("a|b") == "a/b");
}
