// --fail-on expressions (core/src/report/fail_on.cpp) and diff-findings
// (core/src/report/findings_diff.cpp) on findings.json documents built here.
#include <cmath>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

#include "loupe/core/model/model.hpp"
#include "loupe/core/report/fail_on.hpp"
#include "loupe/core/report/findings_diff.hpp"
#include "loupe/core/report/run_finding.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/strict_json.hpp"

using loupe::Json;
using namespace loupe::core;

namespace {

Json parse(const std::string& text) { return to_owned_json(*parse_json_document(text)); }

// Two findings: a GEMM card saving 3.343 ms (10.09 %) and an idle card without a saving, and
// a heuristic card saving 5 ms (15.09 %).
Json run_findings(double gemm_ms = 3.343, const char* gemm_id = "gemm-c429b3ce26c6") {
  const double pct = gemm_ms / 33.131 * 100.0;
  return parse(R"({"schema": "loupe.run_findings/2",
    "run": {"total_time_ms": 33.131, "idle_time_percent": 10.2,
            "exposed_comm_time_percent": 0.0},
    "findings": [
      {"id": ")" +
               std::string(gemm_id) + R"(", "priority": 1, "category": "gemm",
       "tier": "compute", "title": "Compute-bound GEMMs",
       "saving_ms": {"low": 2.9, "mid": )" +
               std::to_string(gemm_ms) + R"(, "high": 3.8},
       "saving_percent_of_e2e": {"low": 8.65, "mid": )" +
               std::to_string(pct) + R"(, "high": 11.53}},
      {"id": "cpu_idle-0123456789ab", "priority": 2, "category": "cpu_idle", "tier": "system",
       "title": "Host waits", "saving_ms": {"low": null, "mid": null, "high": null},
       "saving_percent_of_e2e": {"low": null, "mid": null, "high": null}},
      {"id": "other-0123456789ab", "priority": 3, "category": "other", "tier": "compute",
       "title": "A rule of thumb", "evidence": "heuristic",
       "saving_ms": {"low": 2.5, "mid": 5.0, "high": 7.5},
       "saving_percent_of_e2e": {"low": 7.55, "mid": 15.09, "high": 22.64}}]})");
}

std::vector<std::string> matched_terms(const std::string& expr, const Json& doc) {
  std::vector<std::string> out;
  for (const auto& m : evaluate_fail_on(parse_fail_on(expr), read_run_findings(doc)))
    out.push_back(m.term);
  return out;
}

}  // namespace

TEST_CASE("--fail-on savings terms skip heuristic savings unless asked", "[report][fail_on]") {
  const Json doc = run_findings();
  // The 5 ms heuristic card is the largest saving, yet only the modeled 3.343 ms one counts.
  CHECK(matched_terms("savings>4ms", doc).empty());
  CHECK(matched_terms("savings>15%", doc).empty());
  const auto with = evaluate_fail_on(parse_fail_on("savings>4ms"), read_run_findings(doc), true);
  REQUIRE(with.size() == 1);
  CHECK_THAT(with[0].what, Catch::Contains("other-0123456789ab") && Catch::Contains("5.000 ms"));
  // findings>N and category= still count every finding.
  CHECK(matched_terms("category=other", doc) == std::vector<std::string>{"category=other"});
}

TEST_CASE("--fail-on matches findings and run facts", "[report][fail_on]") {
  const Json doc = run_findings();
  CHECK(matched_terms("savings>10%", doc) == std::vector<std::string>{"savings>10%"});
  CHECK(matched_terms("savings>10.1%", doc).empty());
  CHECK(matched_terms("savings>=3.343ms", doc) == std::vector<std::string>{"savings>=3.343ms"});
  CHECK(matched_terms("savings>3.4ms", doc).empty());  // the unquantified card never matches
  CHECK(matched_terms("idle>10%", doc) == std::vector<std::string>{"idle>10%"});
  CHECK(matched_terms("idle>30%", doc).empty());
  CHECK(matched_terms("comm<1%, total>30ms", doc) ==
        std::vector<std::string>{"comm<1%", "total>30ms"});
  CHECK(matched_terms("findings>=3", doc) == std::vector<std::string>{"findings>=3"});
  CHECK(matched_terms("category=gemm", doc) == std::vector<std::string>{"category=gemm"});
  CHECK(matched_terms("category=sdpa_fwd", doc).empty());
  CHECK(matched_terms("category!=gemm", doc) ==
        std::vector<std::string>{"category!=gemm", "category!=gemm"});
  CHECK(matched_terms("tier=system", doc) == std::vector<std::string>{"tier=system"});
  // Any term: one match is enough, every match is listed with what matched.
  const auto matches =
      evaluate_fail_on(parse_fail_on("savings>50%,category=gemm"), read_run_findings(doc));
  REQUIRE(matches.size() == 1);
  CHECK(matches[0].what ==
        "P1 gemm-c429b3ce26c6 (gemm) Compute-bound GEMMs: saving 3.343 ms "
        "(10.09% of E2E)");
}

TEST_CASE("--fail-on rejects what it cannot read, naming the term", "[report][fail_on]") {
  const auto message = [](const char* expr) {
    try {
      (void)parse_fail_on(expr);
    } catch (const FailOnError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(message("savngs>5%") ==
        "--fail-on: 'savngs>5%': unknown key 'savngs' (keys: savings, "
        "idle, comm, total, findings, category, tier)");
  CHECK(message("savings>5") == "--fail-on: 'savings>5': savings needs ms or %");
  CHECK(message("savings>five%") == "--fail-on: 'savings>five%': 'five' is not a number");
  CHECK(message("idle>3ms") == "--fail-on: 'idle>3ms': a share of GPU time, in %");
  CHECK(message("category>gemm") == "--fail-on: 'category>gemm': category takes = or !=");
  CHECK(message("savings=5%") == "--fail-on: 'savings=5%': savings takes >, >=, < or <=");
  CHECK(message("tier=gpu") == "--fail-on: 'tier=gpu': tier is compute or system");
  CHECK(message("idle>") == "--fail-on: 'idle>': no value after the comparison");
  CHECK(message("savings>5%,") == "--fail-on: 'savings>5%,' has an empty term");
  CHECK(message("gemm") ==
        "--fail-on: 'gemm' is not KEY OP VALUE (keys: savings, idle, comm, "
        "total, findings, category, tier)");
  CHECK(message("savings>nan%") == "--fail-on: 'savings>nan%': 'nan' is not a number");
  CHECK(message(" savings >= 2 ms , idle > 30 % ") == "accepted");
}

TEST_CASE("--fail-on refuses every operator it does not define instead of reading a value",
          "[report][fail_on]") {
  const auto message = [](const std::string& expr) {
    try {
      (void)parse_fail_on(expr);
    } catch (const FailOnError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  // `category==gemm` once parsed as category = "=gemm", which never matched: the gate was off.
  CHECK(message("category==gemm") ==
        "--fail-on: 'category==gemm': '==' is not a comparison --fail-on knows (>, >=, <, <=, "
        "=, !=)");
  std::size_t refused = 0;
  for (const std::string op : {"==", "===", "=>", "=<", "<>", "><", ">>", "<<", "!", "!==", "=!",
                               ">=<", "<=>", "!>", "!<"}) {
    for (const std::string& term : {"savings" + op + "5%", "category" + op + "gemm"}) {
      INFO(term);
      CHECK_THAT(message(term), Catch::Contains("'" + op + "' is not a comparison"));
      ++refused;
    }
  }
  CHECK(refused == 30);
  // An operator split by a space, or a second comparison glued into the value.
  CHECK_THAT(message("savings> =5%"), Catch::Contains("'> =' is not a comparison"));
  CHECK_THAT(message("category = =gemm"), Catch::Contains("'= =' is not a comparison"));
  CHECK_THAT(message("category=gemm=x"),
             Catch::Contains("the value 'gemm=x' holds a comparison character"));
  CHECK_THAT(message("idle>5%<9%"), Catch::Contains("holds a comparison character"));
  // What the user typed is quoted with terminal escapes neutralised.
  CHECK(message("sav\x1b[2Jings>5%").find('\x1b') == std::string::npos);
  CHECK_THAT(message("sav\x1b[2Jings>5%"), Catch::Contains("unknown key 'sav\\x1b[2Jings'"));
  // The six operators still parse.
  for (const char* ok : {"savings>5%", "savings>=5%", "savings<5%", "savings<=5%", "category=gemm",
                         "category!=gemm"}) {
    CHECK(message(ok) == "accepted");
  }
}

TEST_CASE("diff-findings lists what appeared, vanished and grew by stable id",
          "[report][diff_findings]") {
  const Json old_doc = run_findings(3.343);
  const auto same = diff_findings(old_doc, run_findings(3.343), 10.0);
  CHECK(same.appeared.empty());
  CHECK(same.vanished.empty());
  CHECK(same.grew.empty());
  CHECK(same.unchanged == 3);

  const auto grown = diff_findings(old_doc, run_findings(3.8), 10.0);  // +13.7 %
  REQUIRE(grown.grew.size() == 1);
  CHECK(grown.grew[0].id == "gemm-c429b3ce26c6");
  CHECK(*grown.grew[0].old_saving_ms == Approx(3.343));
  CHECK(*grown.grew[0].new_saving_ms == Approx(3.8));
  CHECK(diff_findings(old_doc, run_findings(3.6), 10.0).grew.empty());  // +7.7 %: within

  const auto replaced = diff_findings(old_doc, run_findings(3.343, "gemm-ffffffffffff"), 10.0);
  REQUIRE(replaced.appeared.size() == 1);
  CHECK(replaced.appeared[0].id == "gemm-ffffffffffff");
  REQUIRE(replaced.vanished.size() == 1);
  CHECK(replaced.vanished[0].id == "gemm-c429b3ce26c6");
  CHECK(replaced.unchanged == 2);
  const Json j = findings_diff_json(replaced);
  CHECK(j.find("appeared")->size() == 1);
  CHECK(j.find("unchanged")->as_int() == 2);

  CHECK_THROWS_WITH(diff_findings(parse(R"({"schema": "other"})"), old_doc, 10.0),
                    Catch::Contains("OLD is not a loupe.run_findings/2 document"));
}

TEST_CASE("the strict JSON writer refuses non-finite numbers and text that is not UTF-8",
          "[report][diff_findings]") {
  Json ok = Json::object();
  ok["id"] = std::string("caf\xc3\xa9 \x1b[2J");
  ok["n"] = 1.5;
  ok["list"] = Json::array();
  ok["list"].push_back(Json(-0.0));
  const StrictJson written = dump_strict_json(ok, -1);
  CHECK(written.error.empty());
  CHECK(written.text == "{\"id\": \"caf\xc3\xa9 \\u001b[2J\", \"n\": 1.5, \"list\": [-0.0]}");

  const auto refused = [](const Json& value) { return dump_strict_json(value).error; };
  const auto in_list = [](Json value) {
    Json doc = Json::object();
    doc["grew"] = Json::array();
    doc["grew"].push_back(Json::object());
    doc["grew"].as_array()[0]["title"] = std::move(value);
    return doc;
  };
  CHECK(refused(in_list(Json(std::nan("")))) == "$.grew[0].title is NaN, not a finite number");
  CHECK(refused(in_list(Json(-std::numeric_limits<double>::infinity()))) ==
        "$.grew[0].title is infinite, not a finite number");
  CHECK(refused(in_list(Json(std::string("a\xff")))) ==
        "$.grew[0].title: byte 0xff at offset 1 is not valid UTF-8");
  // An encoded surrogate (what a JSON \udc00 becomes), an overlong form, a cut sequence.
  for (const char* bad : {"\xed\xb0\x80", "\xc0\xaf", "\xe2\x82", "\xf4\x90\x80\x80"}) {
    INFO(bad);
    CHECK_THAT(refused(in_list(Json(std::string(bad)))),
               Catch::Contains("at offset 0 is not valid UTF-8"));
  }
  Json bad_key = Json::object();
  bad_key[std::string("k\xff")] = 1;
  CHECK_THAT(refused(bad_key), Catch::Contains("$ key 'k\xef\xbf\xbd': byte 0xff at offset 1"));
  CHECK(dump_strict_json(in_list(Json(std::nan("")))).text.empty());

  // diff_findings itself refuses such documents (the CLI checks them first, naming the file).
  const Json good = run_findings();
  CHECK(findings_diff_input_problem(good).empty());
  const Json nan_mid = parse(R"({"schema": "loupe.run_findings/2", "findings": [
      {"id": "a", "saving_ms": {"mid": NaN}}]})");
  CHECK(findings_diff_input_problem(nan_mid) ==
        "has findings[0].saving_ms.mid = NaN, not a finite number of ms");
  CHECK_THROWS_WITH(diff_findings(good, nan_mid, 10.0),
                    Catch::Contains("NEW has findings[0].saving_ms.mid = NaN"));
}

TEST_CASE("findings.json read as typed values: a single run's and a rank set's", "[findings]") {
  const Json single = parse(R"({"schema": "loupe.run_findings/2",
    "run": {"total_time_ms": 33.131, "idle_time_percent": 10.2},
    "ledger": {"step_checked": 3, "combined_step_gain_ms": 4.153,
               "combined_saving_sum_ms": 12.917},
    "findings": [
      {"id": "fusion-1", "priority": 1, "category": "fusion", "tier": "compute",
       "title": "Unfused attention", "evidence": "modeled",
       "saving_ms": {"low": 2.0, "mid": 3.885, "high": 4.5},
       "saving_percent_of_e2e": {"low": 6.0, "mid": 11.73, "high": 13.6},
       "what_if": {"step_gain_ms": 3.885}, "parts": [{"id": "gemm-2"}, {"id": "gemm-3"}],
       "sources": {"files": ["category_data/fusion_metrics.json",
                             "category_findings/fusion_findings.md"]}},
      {"id": "gemm-4", "priority": 2, "category": "gemm", "tier": "compute",
       "title": "Memory-bound GEMMs", "evidence": "heuristic", "saving_ms": null,
       "what_if": {"step_gain_ms": 0.0}}],
    "capture_findings": [{"id": "x"}],
    "coverage": {"ops": [{"name": "a"}, {"name": "b"}], "unmodeled_time_ms": 1.25}})");
  const RunFindings doc = read_run_findings(single);
  REQUIRE(doc.findings.size() == 2);
  const RunFinding& top = doc.findings[0];
  CHECK(top.id == "fusion-1");
  CHECK(top.priority == 1);
  CHECK(top.tier == "compute");
  REQUIRE(top.saving_ms);
  CHECK(top.saving_ms->low == 2.0);
  CHECK(top.saving_ms->mid == 3.885);
  CHECK(top.saving_ms->high == 4.5);
  CHECK(top.saving_percent_mid() == 11.73);
  CHECK(top.evidence == loupe::findings::Evidence::Modeled);
  CHECK(top.step_gain_ms() == 3.885);
  CHECK(top.parts.size() == 2);
  CHECK(top.findings_file() == "category_findings/fusion_findings.md");
  CHECK_FALSE(doc.findings[1].saving_ms);
  CHECK(doc.findings[1].evidence == loupe::findings::Evidence::Heuristic);
  CHECK(doc.findings[1].step_gain_ms() == 0.0);
  CHECK(doc.total_time_ms == 33.131);
  CHECK(doc.idle_time_percent == 10.2);
  CHECK_FALSE(doc.exposed_comm_time_percent);
  CHECK(doc.step_checked == 3);
  CHECK(doc.combined_step_gain_ms == 4.153);
  CHECK(doc.combined_saving_sum_ms == 12.917);
  CHECK(doc.capture_findings == 1);
  CHECK(doc.unmodeled_ops == 2);
  CHECK(doc.unmodeled_time_ms == 1.25);

  // A rank set's document: cross-rank cards carry no tier and no what-if.
  const Json set = parse(R"({"schema": "loupe.rank_set_findings/2", "run": {"world_size": 4},
    "findings": [{"id": "multirank-1", "scope": "cross_rank", "category": "multirank",
      "priority": 1, "title": "Rank 2 is a straggler", "evidence": "measured",
      "saving_ms": {"low": 3.459, "mid": 3.459, "high": 4.27},
      "sources": {"files": ["system_findings/multirank_findings.md",
                            "collective_report/nccl_summary_long.csv"]}}]})");
  const RunFindings ranks = read_run_findings(set);
  REQUIRE(ranks.findings.size() == 1);
  CHECK(ranks.findings[0].saving_ms->high == 4.27);
  CHECK(ranks.findings[0].tier.empty());
  CHECK_FALSE(ranks.findings[0].step_gain_ms());
  CHECK(ranks.findings[0].findings_file() == "collective_report/nccl_summary_long.csv");
  CHECK_FALSE(ranks.total_time_ms);

  // Not a findings document at all: empty, no crash.
  CHECK(read_run_findings(parse("[1, 2]")).findings.empty());
  CHECK(read_run_findings(parse(R"({"findings": [3, "x", null]})")).findings.empty());
}

TEST_CASE("one RunFinding struct writes and reads both documents' findings",
          "[fail_on][run_finding]") {
  // Every member a single run's finding has, in the documented order (docs/findings-schema.md).
  const Json run = parse(R"({"id": "gemm-0123456789ab", "category": "gemm", "tier": "compute",
    "plugin": "vendor_gemm", "plugin_version": "2.1.0", "role": "contributing", "priority": 3,
    "category_rank": 2, "title": "Memory-bound GEMMs", "library": "hipBLASLt",
    "operations": ["aten::mm"], "bound_type": "memory", "estimate_method": "quantified",
    "insight": "i", "action": "a",
    "sources": {"files": ["category_data/gemm_metrics.json", "category_findings/gemm_findings.md"],
                "rows": ["aten::mm"]},
    "evidence": "modeled", "saving_ms": {"low": 1.5, "mid": 2.25, "high": 3.0},
    "stated_saving_ms": {"low": 1.5, "mid": 2.5, "high": 3.0},
    "saving_percent_of_e2e": {"low": 1.0, "mid": 1.5, "high": 2.0}, "ledger": "trimmed",
    "what_if": {"step_gain_ms": 2.25, "unresolved_share": 0.125, "limited_saving": true,
                "cumulative_step_gain_ms": null},
    "kernels": ["Cijk_Alik"], "measured_time_ms": 4.5,
    "owns": {"kernel_count": 2, "kernel_time_ms": 4.5, "kernel_uids": [17, 19]},
    "parts": [{"id": "fusion-1", "category": "fusion", "category_rank": 1, "title": "t",
               "evidence": "heuristic", "stated_saving_ms": {"low": null, "mid": null,
               "high": null}}]})");
  const RunFinding f = read_run_finding(run);
  CHECK(f.scope == loupe::core::FindingScope::Run);
  CHECK(f.contributed);
  REQUIRE(f.owns);
  CHECK(f.owns->kernel_uids == std::vector<std::int64_t>{17, 19});
  CHECK(f.what_if->limited_saving);
  CHECK(f.parts.size() == 1);
  CHECK_FALSE(f.parts[0].stated_saving_ms);
  CHECK(loupe::dump_python_json(to_json(f), 2) == loupe::dump_python_json(run, 2));

  // An idle-time owner and a finding with nothing quantified.
  const Json idle = parse(R"({"id": "cpu_idle-1", "category": "cpu_idle", "tier": "system",
    "plugin": "loupe_cpu_idle", "priority": 1, "category_rank": 1, "title": "GPU idle",
    "library": null, "operations": [], "bound_type": null, "estimate_method": null,
    "insight": "i", "action": "a", "sources": {"files": [], "rows": []}, "evidence": "measured",
    "saving_ms": {"low": null, "mid": null, "high": null},
    "stated_saving_ms": {"low": null, "mid": null, "high": null},
    "saving_percent_of_e2e": {"low": null, "mid": null, "high": null}, "ledger": "owner",
    "what_if": null, "kernels": [], "measured_time_ms": 7.25, "owns": {"idle_ms": 7.25},
    "parts": []})");
  CHECK(loupe::dump_python_json(to_json(read_run_finding(idle)), 2) ==
        loupe::dump_python_json(idle, 2));

  // A rank set's findings: cross-rank and per-rank.
  for (const char* text :
       {R"({"id": "multirank-1", "scope": "cross_rank", "category": "multirank", "priority": 1,
          "title": "Rank 2 is a straggler", "ranks": null,
          "saving_ms": {"low": 3.459, "mid": 3.459, "high": 4.27}, "saving_ms_range": null,
          "insight": "i", "action": "a", "sources": {"files": ["a.md", "b.csv"]},
          "evidence": "measured"})",
        R"({"id": "gemm-1", "scope": "per_rank", "category": "gemm", "priority": 2,
          "title": "t", "ranks": [0, 1, 3], "representative_rank": 1,
          "saving_ms": {"low": 1.0, "mid": 2.0, "high": 3.0},
          "saving_ms_range": {"min": 1.5, "max": 2.5}, "insight": "i", "action": "a",
          "sources": {"files": ["rank_1/category_findings/gemm_findings.md"]},
          "evidence": "modeled"})"}) {
    const Json j = parse(text);
    const RunFinding rf = read_run_finding(j);
    CHECK(rf.scope != loupe::core::FindingScope::Run);
    CHECK(loupe::dump_python_json(to_json(rf), 2) == loupe::dump_python_json(j, 2));
  }
}
