#include <catch2/catch.hpp>

#include "loupe/compute/savings.hpp"
#include "loupe/json_value.hpp"

using namespace loupe::compute;
using loupe::Json;

namespace {
Json member(double time_ms, Json eff) {
  Json m = Json::object();
  m["operation"] = "aten::index_select";
  m["time_ms"] = time_ms;
  m["efficiency_pct"] = std::move(eff);
  return m;
}
}  // namespace

TEST_CASE("compute savings: quantified members save their roofline gap at 75/87.5/100%") {
  Json f = Json::object();
  f["estimate_method"] = "quantified";
  f["members"] = Json::array();
  f["members"].push_back(member(2.0, Json(20.0)));  // gap 0.8 -> 1.6 ms at 100 %
  f["members"].push_back(member(1.0, Json(90.0)));  // gap 0.1 -> 0.1 ms
  const SavingsMs s = finding_savings_ms(f);
  CHECK(s.member_time_ms == Approx(3.0));
  CHECK(s.high == Approx(1.7));
  CHECK(s.mid == Approx(1.7 * 0.875));
  CHECK(s.low == Approx(1.7 * 0.75));
  CHECK(savings_sentence(s) ==
        "projected saving 1.275 / 1.488 / 1.700 ms (low / mid / high) of "
        "3.000 ms measured");
}

TEST_CASE("compute savings: heuristic members save 15/30/45% of their time") {
  Json f = Json::object();
  f["estimate_method"] = "heuristic";
  f["members"] = Json::array();
  f["members"].push_back(member(4.0, Json()));
  const SavingsMs s = finding_savings_ms(f);
  CHECK(s.low == Approx(0.6));
  CHECK(s.mid == Approx(1.2));
  CHECK(s.high == Approx(1.8));
}
