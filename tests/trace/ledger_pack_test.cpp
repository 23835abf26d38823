// The time ledger's invariants on every trace of the reference pack (default mode): no GPU op is
// owned by two ranked findings, no saving exceeds what its finding owns, the ranked savings
// together fit in the run's time, every figure of a finding comes from its stored ms, and no
// action is addressed to Loupe's developers.
#include <algorithm>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "reference_pack.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

std::vector<fs::path> pack_traces(const fs::path& shared) {
  return loupe::test::pack_trace_files(shared);
}

}  // namespace

TEST_CASE("the time ledger holds on every trace of the pack", "[ledger][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  const auto traces = pack_traces(shared);
  REQUIRE(traces.size() >= 40);
  std::size_t checked = 0;
  std::size_t with_owners = 0;
  std::size_t step_checked = 0;
  std::size_t captures = 0;
  std::size_t with_steps = 0;
  std::size_t combined = 0;
  for (const auto& trace : traces) {
    INFO(trace.string());
    loupe::test::TempDir out;
    const auto r = loupe::test::run_loupe(
        {"analyze", "--trace", trace.string(), "-o", out.path().string(), "-q"});
    if (r.exit_code == 2) continue;  // not analyzable (no GPU event): said on stderr
    INFO(r.err);
    REQUIRE(fs::is_regular_file(out.path() / "findings.json"));
    rapidjson::Document doc;
    doc.Parse(loupe::test::read_text(out.path() / "findings.json").c_str());
    REQUIRE(doc.IsObject());
    REQUIRE(std::string(doc["schema"].GetString()) == "loupe.run_findings/2");
    const auto& ledger = doc["ledger"];
    // A GPU-graph capture is not a step: nothing of it is ranked.
    if (doc.HasMember("recording") &&
        std::string(doc["recording"]["trace_kind"]["kind"].GetString()) == "graph_capture") {
      CHECK(doc["findings"].Size() == 0);
      CHECK(doc.HasMember("capture_findings"));
      ++captures;
    }
    // Every analyzed trace states its steps, or that it has none (docs/report.md, "Steps").
    REQUIRE(doc.HasMember("steps"));
    if (std::string(doc["steps"]["source"].GetString()) != "none") {
      CHECK(doc["steps"]["count"].GetInt64() >= 1);
      ++with_steps;
    }
    const double run_ms = ledger["run_time_ms"].IsNumber() ? ledger["run_time_ms"].GetDouble() : 0;
    std::set<std::int64_t> owned;
    const bool launch_bound = trace.filename().string().find("bert-small") != std::string::npos;
    double mid = 0;
    double high = 0;
    double cumulative = 0;  // the running what-if total down the ranking
    double best_alone = 0;
    double checked_sum = 0;  // their savings one by one
    std::size_t cumulated = 0;
    for (const auto& f : doc["findings"].GetArray()) {
      INFO(f["id"].GetString() << " " << f["title"].GetString());
      const std::string action = f["action"].GetString();
      CHECK(action.find("performance model") == std::string::npos);
      const std::string evidence = f["evidence"].GetString();
      CHECK((evidence == "measured" || evidence == "modeled" || evidence == "heuristic"));
      if (f["owns"].IsObject() && f["owns"].HasMember("kernel_uids")) {
        for (const auto& k : f["owns"]["kernel_uids"].GetArray()) {
          CHECK(owned.insert(k.GetInt64()).second);  // one owner per GPU op
        }
        if (f["saving_ms"]["high"].IsNumber()) {
          CHECK(f["saving_ms"]["high"].GetDouble() <=
                f["owns"]["kernel_time_ms"].GetDouble() + 0.0015);
        }
      }
      if (f["what_if"].IsObject() && f["saving_ms"]["mid"].IsNumber()) {
        // No kernel finding claims more than the step would gain.
        CHECK(f["saving_ms"]["mid"].GetDouble() <=
              f["what_if"]["step_gain_ms"].GetDouble() + 0.0015);
        ++step_checked;
        // The bert traces are launch-bound (GPU idle ~90 % of the step): their kernels' savings
        // cannot shorten the step.
        if (launch_bound) CHECK(f["saving_ms"]["mid"].GetDouble() < 0.01);
        // Applying one more finding never lengthens the run, and the findings applied together
        // gain at least what the best of them gains alone (the model is monotone).
        const double c = f["what_if"]["cumulative_step_gain_ms"].GetDouble();
        best_alone = std::max(best_alone, f["what_if"]["step_gain_ms"].GetDouble());
        CHECK(c >= cumulative - 0.0015);
        CHECK(c >= best_alone - 0.0015);
        cumulative = c;
        checked_sum += f["saving_ms"]["mid"].GetDouble();
        ++cumulated;
      }
      if (f["saving_ms"]["mid"].IsNumber()) {
        const double m = f["saving_ms"]["mid"].GetDouble();
        mid += m;
        high += f["saving_ms"]["high"].GetDouble();
        CHECK(f["saving_ms"]["low"].GetDouble() <= m);
        CHECK(m <= f["saving_ms"]["high"].GetDouble());
        if (run_ms > 0) {  // the percentage is the stored ms over the run's time
          CHECK(f["saving_percent_of_e2e"]["mid"].GetDouble() ==
                Approx(m / run_ms * 100.0).epsilon(0.001).margin(0.006));
        }
      }
    }
    if (run_ms > 0) {
      CHECK(mid <= run_ms + 0.001 * static_cast<double>(doc["findings"].Size()));
      CHECK(high <= run_ms + 0.001 * static_cast<double>(doc["findings"].Size()));
    }
    if (cumulated > 0) {  // the last running total is the combined answer of the ledger
      CHECK(ledger["combined_step_gain_ms"].GetDouble() == Approx(cumulative).margin(0.0015));
      CHECK(ledger["combined_saving_sum_ms"].GetDouble() ==
            Approx(checked_sum).margin(0.001 * static_cast<double>(cumulated)));
      if (run_ms > 0) CHECK(cumulative <= run_ms);
      ++combined;
    } else if (doc["findings"].Size() > 0) {
      CHECK(ledger["combined_step_gain_ms"].IsNull());
    }
    CHECK(ledger["owned_kernel_count"].GetInt64() == static_cast<std::int64_t>(owned.size()));
    if (!owned.empty()) ++with_owners;
    ++checked;
  }
  CHECK(checked >= 35);
  CHECK(with_owners >= 20);   // kernel-level claims reach most traces
  CHECK(step_checked >= 40);  // and the step-time check most of their findings
  CHECK(combined >= 15);      // and a combined answer on most traces
  CHECK(captures >= 2);       // the pack's vLLM capture traces: nothing ranked
  CHECK(with_steps >= 19);    // ProfilerStep annotations or serving step labels
}
