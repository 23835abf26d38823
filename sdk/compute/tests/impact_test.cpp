#include <catch2/catch.hpp>

#include "loupe/compute/impact.hpp"
#include "loupe/json_value.hpp"

using namespace loupe::compute;
using loupe::Json;

namespace {
OpImpactInput op(double time_ms, double eff, const char* bound) {
  OpImpactInput o;
  o.name = "aten::convolution";
  o.time_ms = time_ms;
  o.efficiency_percent = eff;
  o.bound_type = bound;
  o.percent_of_total = time_ms / 10 * 100;
  return o;
}
}  // namespace

TEST_CASE("compute: estimates, buckets and the 0.5 gate (spec TC-8)") {
  const std::vector<OpImpactInput> ops{op(1.0, 29.99, "compute"), op(1.0, 30.0, "compute"),
                                       op(1.0, 60.0, "compute"), op(0.05, 50.0, "memory"),
                                       op(0.001, 99.99, "memory")};
  const Json estimates = compute_impact_estimates(ops, "conv_fwd", 10.0, false);
  REQUIRE(estimates.size() == 4);  // the 99.99% row is below the 0.01 floor
  const auto& e = estimates.as_array();
  CHECK(e[0].find("impact_score")->as_double() == 6.13);
  CHECK(e[1].find("impact_score")->as_double() == 6.12);  // last-bit difference (spec 3.0)
  CHECK(e[1].find("impact_score_low")->as_double() == 5.25);
  CHECK(e[2].find("impact_score_high")->as_double() == 4.0);
  CHECK(e[3].find("impact_score")->as_double() == 0.22);

  const Json findings = build_category_findings(estimates, false);
  REQUIRE(findings.size() == 3);  // memory group (0.22) dropped
  CHECK(findings.as_array()[0].find("eff_bucket")->as_string() == "0-30");
  CHECK(findings.as_array()[1].find("eff_bucket")->as_string() == "30-60");
  CHECK(findings.as_array()[2].find("eff_bucket")->as_string() == "60-100");
  CHECK(findings.as_array()[2].find("rank")->as_int() == 3);
  CHECK(findings.as_array()[0].find("library")->as_string() == "Unknown");

  CHECK(efficiency_bucket(std::nullopt) == "unknown");
  CHECK(efficiency_bucket(-5) == "0-30");
  CHECK(efficiency_bucket(29.999) == "0-30");
  CHECK(efficiency_bucket(30) == "30-60");
  CHECK(efficiency_bucket(59.99) == "30-60");
  CHECK(efficiency_bucket(150) == "60-100");
}

TEST_CASE("compute: heuristic estimates group by op name (spec TC-6)") {
  std::vector<OpImpactInput> ops(3);
  ops[0].name = "aten::cudnn_convolution";
  ops[0].time_ms = 0.1;
  ops[0].percent_of_total = 1.0;
  ops[1].name = "aten::cudnn_convolution";
  ops[1].time_ms = 0.08;
  ops[1].percent_of_total = 0.8;
  ops[2].name = "aten::convolution";
  ops[2].time_ms = 0.03;
  ops[2].percent_of_total = 0.3;
  const Json estimates = compute_impact_estimates(ops, "conv_fwd", 10.0, false);
  REQUIRE(estimates.size() == 3);
  CHECK(estimates.as_array()[2].find("impact_score_low")->as_double() == 0.04);
  const Json findings = build_category_findings(estimates, false);
  REQUIRE(findings.size() == 1);
  const Json& f = findings.as_array()[0];
  CHECK(f.find("bound_type")->as_string() == "unmodeled");
  CHECK(f.find("impact_score")->as_double() == 0.54);
  CHECK(f.find("impact_score_high")->as_double() == 0.81);
  CHECK(f.find("percent_of_total")->as_double() == 1.8);
  CHECK(f.find("member_count")->as_int() == 2);
  // Comparative mode drops ops without a quantified estimate.
  CHECK(compute_impact_estimates(ops, "conv_fwd", 10.0, true).size() == 0);
  // No E2E time: nothing is estimated.
  CHECK(compute_impact_estimates(ops, "conv_fwd", 0.0, false).size() == 3);
}
