#include <catch2/catch.hpp>

#include "loupe/compute/card_facts.hpp"
#include "loupe/compute/savings.hpp"

using loupe::Json;

namespace {

Json member(const char* op, double time_ms, Json eff) {
  Json m = Json::object();
  m["operation"] = op;
  m["time_ms"] = time_ms;
  m["efficiency_pct"] = std::move(eff);
  return m;
}

}  // namespace

TEST_CASE("savings: roofline gap x measured time; heuristic shares for unmodeled ops") {
  Json quantified = Json::object();
  quantified["estimate_method"] = "quantified";
  quantified["members"] = Json::array();
  quantified["members"].push_back(member("aten::mm", 3.672, Json(52.91)));
  quantified["members"].push_back(member("aten::mm", 1.0, Json(100.0)));  // no gap
  const auto s = loupe::compute::finding_savings(quantified);
  CHECK(s.measured_ms == Approx(4.672));
  CHECK(s.high == Approx(3.672 * 0.4709));
  CHECK(s.mid == Approx(3.672 * 0.4709 * 0.875));
  CHECK(s.low == Approx(3.672 * 0.4709 * 0.75));

  Json heuristic = Json::object();
  heuristic["estimate_method"] = "heuristic";
  heuristic["members"] = Json::array();
  heuristic["members"].push_back(member("aiter::ck_moe_stage1", 0.48, Json()));
  Json metrics = Json::object();
  metrics["category_findings"] = Json::array();
  metrics["category_findings"].push_back(heuristic);
  loupe::compute::add_savings_to_findings(metrics);
  const Json& f = metrics["category_findings"].as_array()[0];
  CHECK(f.find("estimated_savings_ms_low")->as_double() == 0.072);
  CHECK(f.find("estimated_savings_ms")->as_double() == 0.144);
  CHECK(f.find("estimated_savings_ms_high")->as_double() == 0.216);
  CHECK(loupe::compute::savings_sentence(f) ==
        "estimated saving 0.144 ms (low 0.072 ms, high 0.216 ms) of 0.480 ms measured");
  CHECK(loupe::compute::savings_sentence(Json::object()).empty());
}

TEST_CASE("card facts: op base names") {
  CHECK(loupe::compute::op_base_name("aten::add_") == "add");
  CHECK(loupe::compute::op_base_name("aten::_to_copy") == "_to_copy");
  CHECK(loupe::compute::op_base_name("Triton_Poi_Fused") == "triton_poi_fused");
}
