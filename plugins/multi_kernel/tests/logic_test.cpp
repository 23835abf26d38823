// Pure-function cases of spec §8.5 (P1–P18) against the logic library, plus the corrected
// (default) mode rules, the decision gates of §5.8 and bad-input handling.
#include <catch2/catch.hpp>

#include "analysis.hpp"
#include "assessments.hpp"
#include "card_selection.hpp"
#include "json_test_util.hpp"

using loupe::Json;
using mk_test::compact;
using mk_test::obj;
namespace mk = loupe::multi_kernel;

namespace {

constexpr bool kCompat = false;  // `corrected` argument: TraceLens behaviour
constexpr bool kCorrected = true;

Json summary_with(const std::string& direction, Json info, Json total_count, Json total_us) {
  return obj({{"total_count", std::move(total_count)},
              {"total_time_us", std::move(total_us)},
              {"by_direction", obj({{direction, std::move(info)}})}});
}

mk::Timeline timeline_of(std::vector<std::pair<std::string, std::string>> rows) {
  mk::RawTable table{{"type", "time ms", "percent"}, {}};
  for (auto& [type, ms] : rows) table.rows.push_back({type, ms, "0.0"});
  return mk::read_timeline("perf_report_csvs/gpu_timeline.csv", &table, "");
}

}  // namespace

TEST_CASE("multi_kernel P1/P7: memcpy needs a positive total time", "[multi_kernel][pure]") {
  const Json summary = obj({{"total_time_us", 5000}, {"total_count", 3}});
  const std::string expected = R"j({"flagged":false,"details":"No timeline data available"})j";
  CHECK(compact(mk::assess_memcpy(summary, mk::PyNumber::integer(0), kCompat).json) == expected);
  CHECK(compact(mk::assess_memcpy(summary, mk::PyNumber::real(-5.0), kCompat).json) == expected);
}

TEST_CASE("multi_kernel P2/P3: the 5% time share is strict", "[multi_kernel][pure]") {
  const auto d2h = [](Json us) {
    return summary_with("D2H", obj({{"count", 1}, {"total_time_us", us}, {"avg_bytes", 8}}), 1, us);
  };
  CHECK(
      compact(mk::assess_memcpy(d2h(50000), mk::PyNumber::real(1000.0), kCompat).json) ==
      R"j({"flagged":false,"total_count":1,"total_time_ms":50.0,"percent_of_total":5.0,"issues":[]})j");
  CHECK(
      compact(mk::assess_memcpy(d2h(50010), mk::PyNumber::real(1000.0), kCompat).json) ==
      R"j({"flagged":true,"total_count":1,"total_time_ms":50.01,"percent_of_total":5.0,"issues":[{"direction":"D2H","count":1,"time_ms":50.01,"percent_of_total":5.0,"avg_bytes":8,"description":"D2H memcpy: 1 transfers, 50.010ms (5.00% of total)"}]})j");
  // Corrected mode: singular noun and a share that does not print as the threshold.
  const auto corrected = mk::assess_memcpy(d2h(50010), mk::PyNumber::real(1000.0), kCorrected);
  REQUIRE(corrected.issues.size() == 1);
  CHECK(corrected.issues[0].description == "D2H memcpy: 1 transfer, 50.010ms (5.001% of total)");
}

TEST_CASE("multi_kernel P4: more than 10 transfers flags the direction", "[multi_kernel][pure]") {
  const auto h2d = [](int count) {
    return summary_with("H2D", obj({{"count", count}, {"total_time_us", 10}}), count, 10);
  };
  CHECK_FALSE(mk::assess_memcpy(h2d(10), mk::PyNumber::real(1000.0), kCompat).flagged);
  CHECK(mk::assess_memcpy(h2d(11), mk::PyNumber::real(1000.0), kCompat).flagged);
  // Corrected mode: 11 copies with a 0.001% share are negligible and stay unflagged.
  CHECK_FALSE(mk::assess_memcpy(h2d(11), mk::PyNumber::real(1000.0), kCorrected).flagged);
  const Json heavy =
      summary_with("H2D", obj({{"count", 11}, {"total_time_us", 20000.0}}), 11, 20000.0);
  const auto flagged = mk::assess_memcpy(heavy, mk::PyNumber::real(1000.0), kCorrected);
  REQUIRE(flagged.issues.size() == 1);
  CHECK(flagged.issues[0].by_count);
  CHECK_FALSE(flagged.issues[0].by_time_share);
}

TEST_CASE("multi_kernel P5/P6: D2D and other are assessed only when corrected",
          "[multi_kernel][pure]") {
  const Json summary =
      obj({{"total_count", 500},
           {"total_time_us", 900000},
           {"by_direction", obj({{"D2D", obj({{"count", 400}, {"total_time_us", 800000}})},
                                 {"other", obj({{"count", 100}, {"total_time_us", 100000}})}})}});
  CHECK(
      compact(mk::assess_memcpy(summary, mk::PyNumber::real(1000.0), kCompat).json) ==
      R"j({"flagged":false,"total_count":500,"total_time_ms":900.0,"percent_of_total":90.0,"issues":[]})j");
  const auto corrected = mk::assess_memcpy(summary, mk::PyNumber::real(1000.0), kCorrected);
  REQUIRE(corrected.issues.size() == 2);
  CHECK(corrected.issues[0].direction == "D2D");
  CHECK(corrected.issues[0].percent == Approx(80.0));
  CHECK(corrected.issues[1].direction == "other");

  const Json zero_count =
      summary_with("D2H", obj({{"count", 0}, {"total_time_us", 900000}}), 0, 900000);
  CHECK(
      compact(mk::assess_memcpy(zero_count, mk::PyNumber::real(1000.0), kCompat).json) ==
      R"j({"flagged":false,"total_count":0,"total_time_ms":900.0,"percent_of_total":90.0,"issues":[]})j");
}

TEST_CASE("multi_kernel P8–P11: communication blocking", "[multi_kernel][pure]") {
  const auto overlap = [](double pct) {
    return obj({{"total_comm_time_us", 1000.0},
                {"exposed_comm_time_us", 300.0},
                {"comm_percent_of_total", pct}});
  };
  CHECK(
      compact(mk::assess_blocking(overlap(5.0), kCompat).json) ==
      R"j({"flagged":false,"exposed_comm_time_ms":0.3,"total_comm_time_ms":1.0,"exposed_percent_of_total":5.0,"description":"Exposed (non-overlapped) communication: 5.0% of total GPU time"})j");
  CHECK(
      compact(mk::assess_blocking(overlap(5.01), kCompat).json) ==
      R"j({"flagged":true,"exposed_comm_time_ms":0.3,"total_comm_time_ms":1.0,"exposed_percent_of_total":5.01,"description":"Exposed (non-overlapped) communication: 5.0% of total GPU time"})j");
  CHECK(compact(mk::assess_blocking(obj({{"total_comm_time_us", 0}}), kCompat).json) ==
        R"j({"flagged":false,"details":"No communication events detected"})j");
  CHECK(
      compact(mk::assess_blocking(obj({{"total_comm_time_us", 0.004}}), kCompat).json) ==
      R"j({"flagged":false,"exposed_comm_time_ms":0.0,"total_comm_time_ms":0.0,"exposed_percent_of_total":0,"description":"Exposed (non-overlapped) communication: 0.0% of total GPU time"})j");
}

TEST_CASE("multi_kernel corrected blocking decides on the unrounded share",
          "[multi_kernel][pure]") {
  // 5004 / 100000 = 5.004 %, stored rounded as 5.0: TraceLens does not flag it.
  const Json overlap = obj({{"total_time_us", 100000.0},
                            {"total_comm_time_us", 6000.0},
                            {"exposed_comm_time_us", 5004.0},
                            {"comm_percent_of_total", 5.0}});
  CHECK_FALSE(mk::assess_blocking(overlap, kCompat).flagged);
  const auto corrected = mk::assess_blocking(overlap, kCorrected);
  CHECK(corrected.flagged);
  CHECK(corrected.json.find("description")->as_string() ==
        "Exposed (non-overlapped) communication: 5.004% of total GPU time");
}

TEST_CASE("multi_kernel P12–P15: overlap", "[multi_kernel][pure]") {
  const auto overlap = [](double ratio, double comm) {
    return obj({{"comm_overlap_ratio", ratio}, {"total_comm_time_us", comm}});
  };
  CHECK(
      compact(mk::assess_overlap(overlap(0.7, 100), kCompat).json) ==
      R"j({"flagged":false,"overlap_ratio":0.7,"overlap_percent":70.0,"target_percent":70,"description":"Compute/communication overlap: 70.0% (target > 70%)"})j");
  CHECK(
      compact(mk::assess_overlap(overlap(0.6999, 100), kCompat).json) ==
      R"j({"flagged":true,"overlap_ratio":0.6999,"overlap_percent":69.99,"target_percent":70,"description":"Compute/communication overlap: 70.0% (target > 70%)"})j");
  CHECK(compact(mk::assess_overlap(overlap(0.0, 99.99), kCompat).json) ==
        R"j({"flagged":false,"details":"Insufficient communication data for overlap analysis"})j");
  CHECK(
      compact(mk::assess_overlap(overlap(0.66665, 5000), kCompat).json) ==
      R"j({"flagged":true,"overlap_ratio":0.6666,"overlap_percent":66.66,"target_percent":70,"description":"Compute/communication overlap: 66.7% (target > 70%)"})j");
  // Corrected: a flagged ratio never reads as the target.
  CHECK(
      mk::assess_overlap(overlap(0.6999, 100), kCorrected).json.find("description")->as_string() ==
      "Compute/communication overlap: 69.99% (target > 70%)");
  // Corrected: 1 - 30.004/100 = 0.69996 is below target; the stored 4-dp ratio 0.7 is not.
  const Json precise = obj({{"comm_overlap_ratio", 0.7},
                            {"total_comm_time_us", 100.0},
                            {"exposed_comm_time_us", 30.004}});
  CHECK_FALSE(mk::assess_overlap(precise, kCompat).flagged);
  CHECK(mk::assess_overlap(precise, kCorrected).flagged);
}

TEST_CASE("multi_kernel P16–P18: cross-validation", "[multi_kernel][pure]") {
  const Json overlap16 = obj(
      {{"computation_time_us", 98000.0}, {"exposed_comm_time_us", 0}, {"total_time_us", 100000.0}});
  const auto p16 = mk::cross_validate(overlap16, timeline_of({{"computation_time", "100.0"},
                                                              {"exposed_comm_time", "0.0"},
                                                              {"total_time", "98.0"}}));
  CHECK(
      compact(p16.json) ==
      R"j({"status":"PASS","checks":[{"metric":"Computation time","mk_ms":98.0,"tl_ms":100.0,"diff_ms":2.0,"diff_pct":2.0,"status":"PASS"},{"metric":"Exposed communication time","status":"PASS","mk_ms":0,"tl_ms":0,"diff_ms":0},{"metric":"Exposed memcpy time","status":"SKIP","reason":"exposed_memcpy_time not found in gpu_timeline.csv"},{"metric":"Total GPU time","mk_ms":100.0,"tl_ms":98.0,"diff_ms":2.0,"diff_pct":2.0,"status":"PASS"}],"warnings":[]})j");

  const auto p17 =
      mk::cross_validate(obj({{"total_time_us", 100000.0}}), timeline_of({{"total_time", "97.9"}}));
  CHECK(
      compact(p17.json) ==
      R"j({"status":"WARN","checks":[{"metric":"Computation time","status":"SKIP","reason":"computation_time not found in gpu_timeline.csv"},{"metric":"Exposed communication time","status":"SKIP","reason":"exposed_comm_time not found in gpu_timeline.csv"},{"metric":"Exposed memcpy time","status":"SKIP","reason":"exposed_memcpy_time not found in gpu_timeline.csv"},{"metric":"Total GPU time","mk_ms":100.0,"tl_ms":97.9,"diff_ms":2.1,"diff_pct":2.1,"status":"WARN"}],"warnings":["Total GPU time: multi_kernel_data=100.000ms vs gpu_timeline=97.900ms (diff 2.1%)"]})j");

  const auto p18 = mk::cross_validate(obj({{"exposed_comm_time_us", 1.0}}),
                                      timeline_of({{"exposed_comm_time", "0.0"}}));
  CHECK(
      compact(p18.json) ==
      R"j({"status":"WARN","checks":[{"metric":"Computation time","status":"SKIP","reason":"computation_time not found in gpu_timeline.csv"},{"metric":"Exposed communication time","mk_ms":0.001,"tl_ms":0.0,"diff_ms":0.001,"diff_pct":100.0,"status":"WARN"},{"metric":"Exposed memcpy time","status":"SKIP","reason":"exposed_memcpy_time not found in gpu_timeline.csv"},{"metric":"Total GPU time","status":"SKIP","reason":"total_time not found in gpu_timeline.csv"}],"warnings":["Exposed communication time: multi_kernel_data=0.001ms vs gpu_timeline=0.000ms (diff 100.0%)"]})j");
}

TEST_CASE("multi_kernel timeline: first total_time row, int column, fallbacks",
          "[multi_kernel][pure]") {
  const Json overlap = obj({{"total_time_us", 400.0}});
  // E03: the first of two total_time rows is the memcpy denominator.
  auto total =
      mk::timeline_total_time(timeline_of({{"total_time", "0.4"}, {"total_time", "1.0"}}), overlap);
  CHECK(total.ms.value() == 0.4);
  CHECK(total.source == mk::TotalTime::Source::TimelineRow);
  // E10: an all-integer column stays int.
  total = mk::timeline_total_time(timeline_of({{"total_time", "200"}}), overlap);
  CHECK(total.ms.is_int());
  CHECK(total.ms.int_value() == 200);
  // E04: no total_time row -> int 0, no fallback.
  total = mk::timeline_total_time(timeline_of({{"kernel", "0.2"}}), overlap);
  CHECK(total.ms.is_int());
  CHECK(total.ms.int_value() == 0);
  // E02: missing file -> overlap span / 1000.
  const auto missing = mk::read_timeline("perf_report_csvs/gpu_timeline.csv", nullptr, "missing");
  total = mk::timeline_total_time(missing, overlap);
  CHECK(total.source == mk::TotalTime::Source::Fallback);
  CHECK(total.ms.value() == 0.4);
  CHECK(mk::cross_validate(overlap, missing).json.is_null());
  // E07: no `type` column -> unreadable.
  mk::RawTable odd{{"foo", "bar"}, {{"1", "2"}}};
  CHECK_FALSE(mk::read_timeline("f.csv", &odd, "").readable);
}

TEST_CASE("multi_kernel bad timeline values are input problems", "[multi_kernel][pure]") {
  const Json overlap = obj({{"total_time_us", 400.0}});
  CHECK_THROWS_AS(timeline_of({{"total_time", "abc"}}), mk::InputProblem);
  CHECK_THROWS_WITH(mk::timeline_total_time(timeline_of({{"total_time", ""}}), overlap),
                    Catch::Contains("gpu_timeline.csv") && Catch::Contains("NaN"));
}

namespace {

// TC10 of spec §8.2 as analysis inputs.
mk::AnalysisInputs tc10_inputs() {
  mk::AnalysisInputs in;
  in.data =
      obj({{"memcpy_summary",
            obj({{"total_count", 1},
                 {"total_time_us", 120.0},
                 {"by_direction",
                  obj({{"H2D",
                        obj({{"count", 1}, {"total_time_us", 120.0}, {"avg_bytes", 4096.0}})}})}})},
           {"nccl_summary", obj({{"total_count", 2}, {"total_time_us", 120.0}})},
           {"overlap_analysis", obj({{"total_time_us", 210.0},
                                     {"computation_time_us", 100.0},
                                     {"total_comm_time_us", 100.0},
                                     {"exposed_comm_time_us", 80.0},
                                     {"total_memcpy_time_us", 120.0},
                                     {"exposed_memcpy_time_us", 30.0},
                                     {"comm_overlap_ratio", 0.2},
                                     {"memcpy_overlap_ratio", 0.75},
                                     {"comm_percent_of_total", 38.1},
                                     {"memcpy_percent_of_total", 14.29}})}});
  in.tables["perf_report_csvs/gpu_timeline.csv"] =
      mk::RawTable{{"type", "time ms", "percent"}, {{"total_time", "0.21", "100.0"}}};
  return in;
}

std::vector<std::string> card_titles(const mk::AnalysisOutput& out) {
  std::vector<std::string> titles;
  for (const auto& r : out.findings.recommendations) titles.push_back(r.title);
  return titles;
}

Json overlap_doc(double exposed_pct, double ratio) {
  return obj({{"memcpy_summary", obj({{"total_count", 0}, {"total_time_us", 0}})},
              {"nccl_summary", obj({{"total_count", 4}, {"total_time_us", 5000.0}})},
              {"overlap_analysis", obj({{"total_time_us", 10000.0},
                                        {"computation_time_us", 8000.0},
                                        {"total_comm_time_us", 5000.0},
                                        {"exposed_comm_time_us", exposed_pct * 100.0},
                                        {"comm_overlap_ratio", ratio},
                                        {"comm_percent_of_total", exposed_pct}})}});
}

}  // namespace

TEST_CASE("multi_kernel gates: TC10 ranks H2D before communication", "[multi_kernel][gates]") {
  mk::AnalysisOptions options;
  options.compat = true;
  const auto training = mk::run_analysis(tc10_inputs(), options);
  CHECK(card_titles(training) ==
        std::vector<std::string>{"Host-to-device staging copies",
                                 "Collective communication is not overlapped with compute"});
  REQUIRE(training.findings.details.size() == 2);
  CHECK(training.findings.details[1].rank == 2);
  CHECK(training.findings.recommendations[0].insight ==
        "1 host-to-device copy takes 0.120 ms (57.14% of total GPU time).");
  CHECK(training.findings.recommendations[1].insight ==
        "Collective communication leaves 0.080 ms (38.10% of total GPU time) uncovered by "
        "compute, and only 20.00% of communication overlaps compute.");
  options.workload = "inference";
  const auto inference = mk::run_analysis(tc10_inputs(), options);
  CHECK(card_titles(inference)[1] == "Tensor-parallel collectives stall decode compute");
}

TEST_CASE("multi_kernel gates: F1 volume card, F2 overlap card, TC03 blocking only",
          "[multi_kernel][gates]") {
  mk::AnalysisOptions options;
  options.compat = true;
  mk::AnalysisInputs f1;
  f1.data = overlap_doc(10.0, 0.8);  // blocking flagged, overlap graded and healthy
  const auto out1 = mk::run_analysis(f1, options);
  CHECK(card_titles(out1) ==
        std::vector<std::string>{"Communication volume dominates despite healthy overlap"});
  CHECK(out1.findings.recommendations[0].action.find("gradient bucket size") != std::string::npos);
  options.workload = "inference";
  CHECK(mk::run_analysis(f1, options)
            .findings.recommendations[0]
            .action.find("compressed all-reduce") != std::string::npos);

  mk::AnalysisInputs f2;
  f2.data = overlap_doc(4.0, 0.2);  // blocking not flagged, overlap poor
  CHECK(card_titles(mk::run_analysis(f2, options)) ==
        std::vector<std::string>{"Tensor-parallel collectives stall decode compute"});

  mk::AnalysisInputs tc03;
  tc03.data = obj({{"overlap_analysis", obj({{"total_time_us", 990.0},
                                             {"total_comm_time_us", 90.0},
                                             {"exposed_comm_time_us", 90.0},
                                             {"comm_overlap_ratio", 0.0},
                                             {"comm_percent_of_total", 9.09}})}});
  options.workload = "";
  const auto out3 = mk::run_analysis(tc03, options);
  REQUIRE(out3.findings.recommendations.size() == 1);
  CHECK(out3.findings.recommendations[0].insight.find("too small to grade overlap") !=
        std::string::npos);
}

TEST_CASE("multi_kernel gates: nothing flagged gives no card", "[multi_kernel][gates]") {
  mk::AnalysisInputs in;
  in.data = overlap_doc(0.0, 1.0);
  for (bool compat : {true, false}) {
    mk::AnalysisOptions options;
    options.compat = compat;
    const auto out = mk::run_analysis(in, options);
    CHECK(out.findings.status == loupe::findings::Status::Ok);
    CHECK(out.findings.recommendations.empty());
    CHECK(out.findings.details.empty());
  }
}

TEST_CASE("multi_kernel workload: manifest first, then option, default training",
          "[multi_kernel][pure]") {
  const auto manifest = std::optional<Json>(obj({{"analysis_mode", "inference"}}));
  CHECK(mk::choose_workload(manifest, "training").mode == mk::WorkloadMode::Inference);
  CHECK(mk::choose_workload(manifest, "training").source.find("manifest") != std::string::npos);
  CHECK(mk::choose_workload(std::nullopt, "inference").mode == mk::WorkloadMode::Inference);
  const auto fallback = mk::choose_workload(std::nullopt, "");
  CHECK(fallback.mode == mk::WorkloadMode::Training);
  CHECK(fallback.source.find("default") != std::string::npos);
}

TEST_CASE("multi_kernel bad data gives ERROR naming the file and the problem",
          "[multi_kernel][errors]") {
  const auto error_of = [](Json data) {
    mk::AnalysisInputs in;
    in.data = std::move(data);
    const auto out = mk::run_analysis(in, {});
    REQUIRE(out.findings.status == loupe::findings::Status::Error);
    REQUIRE(out.metrics.find("status")->as_string() == "ERROR");
    return out.metrics.find("error")->as_string();
  };
  CHECK(error_of(Json::array()) ==
        "category_data/multi_kernel_data.json: the document is an empty list, expected an object");
  CHECK(error_of(obj({{"memcpy_summary", Json::Array{Json(1)}}})) ==
        "category_data/multi_kernel_data.json: memcpy_summary is a list, expected an object");
  CHECK(error_of(obj({{"overlap_analysis", obj({{"total_comm_time_us", "12"}})}})) ==
        "category_data/multi_kernel_data.json: overlap_analysis.total_comm_time_us is a string, "
        "expected a finite number");
  CHECK(error_of(obj({{"overlap_analysis", obj({{"comm_percent_of_total", std::nan("")},
                                                {"total_comm_time_us", 5.0}})}})) ==
        "category_data/multi_kernel_data.json: overlap_analysis.comm_percent_of_total is NaN, "
        "expected a finite number");

  mk::AnalysisInputs missing;
  mk::AnalysisOptions compat;
  compat.compat = true;
  const auto out = mk::run_analysis(missing, compat);
  CHECK(
      compact(out.metrics) ==
      R"j({"status":"ERROR","error":"multi_kernel_data.json not found - run orchestrator_prepare.py first","memcpy_assessment":{"flagged":false},"nccl_blocking_assessment":{"flagged":false},"overlap_assessment":{"flagged":false},"patterns_detected":[]})j");
}

TEST_CASE("multi_kernel: host<->device copies are judged against the host link (default mode)",
          "[multi_kernel][pure]") {
  // 38.5 MB in 3.461 ms of a 160 ms run: 11.13 GB/s, 17 % of a 64 GB/s link, 2.16 % of the time.
  const auto h2d = [](double bytes) {
    return summary_with(
        "H2D", obj({{"count", 1}, {"total_time_us", 3461.36}, {"total_bytes", bytes}}), 1, 3461.36);
  };
  const auto slow = mk::assess_memcpy(h2d(38535168.0), mk::PyNumber::real(160.0), kCorrected, 64.0);
  REQUIRE(slow.issues.size() == 1);
  const auto& issue = slow.issues[0];
  CHECK(issue.by_link);
  CHECK_FALSE(issue.by_time_share);
  REQUIRE(issue.achieved_gbps);
  CHECK(*issue.achieved_gbps == Approx(38535168.0 / 3.46136e6).epsilon(1e-6));
  CHECK(issue.description.find("11.13 GB/s of the 64 GB/s host link") != std::string::npos);
  const Json* flagged_by = slow.json.find("issues")->as_array()[0].find("flagged_by");
  REQUIRE(flagged_by != nullptr);
  CHECK(compact(*flagged_by) == R"j(["host_link"])j");

  // The same bytes at 40 GB/s (62 % of the link) are not slow; nor is anything without a link,
  // in compat mode, or when the copies are under 1 % of the run.
  const auto fast = summary_with(
      "H2D", obj({{"count", 1}, {"total_time_us", 963.4}, {"total_bytes", 38535168.0}}), 1, 963.4);
  CHECK_FALSE(mk::assess_memcpy(fast, mk::PyNumber::real(60.0), kCorrected, 64.0).flagged);
  CHECK_FALSE(mk::assess_memcpy(h2d(38535168.0), mk::PyNumber::real(160.0), kCorrected).flagged);
  CHECK_FALSE(mk::assess_memcpy(h2d(38535168.0), mk::PyNumber::real(160.0), kCompat, 64.0).flagged);
  CHECK_FALSE(
      mk::assess_memcpy(h2d(38535168.0), mk::PyNumber::real(400.0), kCorrected, 64.0).flagged);
  // Device-to-device copies never use the host link.
  const Json d2d = summary_with(
      "D2D", obj({{"count", 1}, {"total_time_us", 3461.36}, {"total_bytes", 38535168.0}}), 1,
      3461.36);
  CHECK_FALSE(mk::assess_memcpy(d2d, mk::PyNumber::real(160.0), kCorrected, 64.0).flagged);
}
