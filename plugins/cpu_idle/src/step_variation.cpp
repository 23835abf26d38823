#include "step_variation.hpp"

#include <algorithm>

#include "loupe/python_format.hpp"
#include "recommendations.hpp"

namespace loupe::cpu_idle {

namespace fd = loupe::findings;

namespace {

std::int64_t int_at(const Json& j, const char* key) {
  const Json* v = j.find(key);
  return v != nullptr && v->is_int() ? v->as_int() : 0;
}

Json percent(double part_ms, std::int64_t span_ns) {
  if (span_ns <= 0) return {0.0};
  return {py::round_half_even(part_ms / ms(span_ns) * 100.0, 2)};
}

}  // namespace

std::optional<StepVariation> read_step_variation(const Json& doc) {
  if (!doc.is_object()) return std::nullopt;
  const Json* steps = doc.find("steps");
  const Json* var = doc.find("variation");
  if (steps == nullptr || !steps->is_array() || var == nullptr || !var->is_object()) {
    return std::nullopt;
  }
  StepVariation v;
  if (const Json* s = doc.find("source"); s != nullptr && s->is_string()) v.source = s->as_string();
  v.steady_steps = int_at(*var, "steady_steps");
  v.median_ns = int_at(*var, "median_ns");
  v.spread_ns = int_at(*var, "spread_ns");
  v.threshold_ns = int_at(*var, "threshold_ns");
  v.excess_ns = int_at(*var, "excess_ns");
  const Json* slow = var->find("slow");
  if (slow == nullptr || !slow->is_array()) return std::nullopt;
  for (const Json& i : slow->as_array()) {
    if (!i.is_int() || i.as_int() < 0 || static_cast<std::size_t>(i.as_int()) >= steps->size()) {
      continue;
    }
    const Json& row = steps->as_array()[static_cast<std::size_t>(i.as_int())];
    const Json* name = row.find("name");
    v.slow.push_back({name != nullptr && name->is_string() ? name->as_string() : std::string(),
                      int_at(row, "end_ns") - int_at(row, "start_ns")});
  }
  if (v.slow.empty() || v.excess_ns <= 0 || v.median_ns <= 0) return std::nullopt;
  return v;
}

std::pair<fd::Recommendation, fd::Detail> step_variation_card(const StepVariation& v,
                                                              std::int64_t span_ns) {
  const double high = ms(v.excess_ns);
  const double low = high * kSavingLow;
  const double mid = high * kSavingMid;
  const auto slowest =
      std::max_element(v.slow.begin(), v.slow.end(),
                       [](const SlowStep& a, const SlowStep& b) { return a.step_ns < b.step_ns; });
  fd::Recommendation r;
  r.title = "Step time varies: " + std::to_string(v.slow.size()) + " of " +
            std::to_string(v.steady_steps) + " steps run longer than the median step";
  r.insight = std::to_string(v.slow.size()) + " steady step(s) exceed the median step (" +
              fixed_ms(v.median_ns) + " ms) by more than the noise (" + fixed_ms(v.threshold_ns) +
              " ms: 3 robust standard deviations of " + fixed_ms(v.spread_ns) +
              " ms, at least 5 % of the median); the slowest, " +
              fd::table_cell(slowest->name, 60) + ", takes " + fixed_ms(slowest->step_ns) +
              " ms. Together they run " + fixed(high, 3) +
              " ms longer than the median step (measured; warm-up steps excluded).";
  r.action =
      "Compare a slow step with a typical one in the Steps table of analysis.md (host time, GPU "
      "busy, idle by cause) and find what only the slow steps do: a periodic host task "
      "(logging, checkpointing, evaluation), garbage collection, a data-loading stall or a "
      "recompilation; make it asynchronous or move it out of the step loop.";
  r.impact = fd::ImpactScores{percent(low, span_ns), percent(mid, span_ns), percent(high, span_ns),
                              "impact_score: " + dump_python_json(percent(mid, span_ns), -1) +
                                  "; estimated saving " + fixed(mid, 3) + " ms (low " +
                                  fixed(low, 3) + " ms, high " + fixed(high, 3) +
                                  " ms: the measured time the slow steps take beyond the median "
                                  "step, an upper bound)"};
  r.evidence = fd::Evidence::Measured;
  r.saving_ms = fd::SavingMs{low, mid, high};

  fd::Detail d;
  d.identification =
      "Steady steps slower than the median step by more than the noise (source: "
      "`findings.json` → `steps.table`, `steps.variation`; the raw trace's step annotations).";
  fd::Table t{{"Step", "Time (ms)", "Beyond the median (ms)"}, {}};
  for (const SlowStep& s : v.slow) {
    t.rows.push_back(
        {fd::table_cell(s.name, 60), fixed_ms(s.step_ns), fixed_ms(s.step_ns - v.median_ns)});
  }
  d.data.push_back(fd::table(std::move(t)));
  d.reasoning =
      "A step that runs longer than its peers does work the others do not, or waits on "
      "something they do not; the median step shows what the loop costs without it.";
  d.resolution = "Without that extra work each slow step would take about the median step time.";
  d.estimate =
      fd::DetailEstimate{percent(low, span_ns),
                         percent(high, span_ns),
                         {"Low end: " + fixed(low, 3) + " ms, impact_score " +
                              dump_python_json(percent(low, span_ns), -1),
                          "High end: " + fixed(high, 3) +
                              " ms, the measured time beyond the median step, impact_score " +
                              dump_python_json(percent(high, span_ns), -1)}};
  return {std::move(r), std::move(d)};
}

}  // namespace loupe::cpu_idle
