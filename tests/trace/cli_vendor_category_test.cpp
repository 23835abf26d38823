// Vendor categories from a raw trace (docs/plugin-abi.md, "Vendor categories"): a plugin's
// selector (tests/plugins/vendor_category_plugin.cpp) makes `loupe analyze --trace` write
// category_data/<cat>_ops.csv with the rows whose GPU ops or op names match, route the category
// to the plugin, count the matches in loupe_run.json and rank the plugin's card in findings.json;
// the TraceLens files stay byte-identical (compat mode too); a selector that does not compile
// stops the run (exit 2) before any work, one that matches nothing is a warning. The counts are
// checked against the hand-written trace and, on the bundled sample and a pack trace, against an
// independent count of the raw trace's kernel events.
#include <zlib.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "inline_trace.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_loupe;
using loupe::test::TempDir;

namespace {

rapidjson::Document parse_file(const fs::path& path) {
  rapidjson::Document doc;
  doc.Parse(read_text(path).c_str());
  REQUIRE(doc.IsObject());
  return doc;
}

std::string plugin_dir(const char* test_case) {
  return (loupe::test::test_plugin_dir() / test_case).string();
}

// Lines of a CSV file (the header first); cells are not split.
std::vector<std::string> lines(const fs::path& path) {
  std::vector<std::string> out;
  std::stringstream stream(read_text(path));
  std::string line;
  while (std::getline(stream, line)) out.push_back(line);
  return out;
}

// Four ops: two aten::mm calls (one row of the summary, 30 + 5 us of Cijk_ kernels), aten::relu
// (relu_kernel, 20 us) and aten::addmm (vendor_gemm_bias, 10 us).
std::string hand_written_trace() {
  namespace it = loupe::test::inline_trace;
  return it::trace_document(it::op_with_kernel("aten::mm", "Cijk_Alik_Bljk_MT64", 1, 0, 30) +
                            it::op_with_kernel("aten::relu", "relu_kernel", 2, 100, 20) +
                            it::op_with_kernel("aten::addmm", "vendor_gemm_bias", 3, 200, 10) +
                            it::op_with_kernel("aten::mm", "Cijk_Alik_Bljk_MT64", 4, 300, 5));
}

const rapidjson::Value& vendor_entry(const rapidjson::Document& run, const std::string& name) {
  REQUIRE(run.HasMember("vendor_categories"));
  for (const auto& c : run["vendor_categories"].GetArray()) {
    if (name == c["name"].GetString()) return c;
  }
  FAIL("no vendor category " << name);
  return run;
}

// Who analyzed `category` and with what status, per loupe_run.json.
std::pair<std::string, std::string> analyzed_by(const rapidjson::Document& run,
                                                const std::string& category) {
  for (const auto& p : run["plugins"].GetArray()) {
    for (const auto& c : p["categories"].GetArray()) {
      if (category == c["category"].GetString()) {
        return {p["name"].GetString(), c["status"].GetString()};
      }
    }
  }
  return {};
}

// The ex_UIDs (first numeric cell after the fixed text columns is not reliable, so the column is
// found by name) of a <cat>_ops.csv, through the analysis directory's own rows.
std::set<std::string> ex_uids(const fs::path& csv) {
  const auto all = lines(csv);
  std::set<std::string> out;
  if (all.empty()) return out;
  // ex_UID is the 10th column of the perf summary (name, op category, process_name,
  // process_label, thread_name, Input Dims, Input type, Input Strides, Concrete Inputs, ex_UID).
  REQUIRE(all[0].find("Concrete Inputs,ex_UID,") != std::string::npos);
  for (std::size_t i = 1; i < all.size(); ++i) {
    // Split on commas outside quotes.
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (const char c : all[i]) {
      if (c == '"') quoted = !quoted;
      if (c == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += c;
      }
    }
    REQUIRE(cells.size() > 9);
    out.insert(cells[9]);
  }
  return out;
}

// `text` with the output directory's path replaced by a placeholder.
std::string with_dir(std::string text, const fs::path& dir) {
  const std::string from = fs::absolute(dir).lexically_normal().string();
  for (auto pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos)) {
    text.replace(pos, from.size(), "<output_dir>");
  }
  return text;
}

// Every kernel event of a raw trace (.json or .json.gz) whose name starts with Cijk_ or holds
// "gemm": their number and summed duration (us), read straight from the trace's JSON.
struct RawCount {
  std::size_t kernels = 0;
  double dur_us = 0.0;
};
RawCount raw_gemm_kernels(const fs::path& trace) {
  std::string text;
  gzFile f = gzopen(trace.string().c_str(), "rb");
  REQUIRE(f != nullptr);
  char buf[1 << 16];
  int n = 0;
  while ((n = gzread(f, buf, sizeof buf)) > 0) text.append(buf, static_cast<std::size_t>(n));
  gzclose(f);
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  REQUIRE(doc.IsObject());
  RawCount count;
  for (const auto& e : doc["traceEvents"].GetArray()) {
    if (!e.IsObject() || !e.HasMember("cat") || !e["cat"].IsString() ||
        std::string(e["cat"].GetString()) != "kernel") {
      continue;
    }
    const std::string name = e["name"].GetString();
    if (name.rfind("Cijk_", 0) != 0 && name.find("gemm") == std::string::npos) continue;
    ++count.kernels;
    count.dur_us += e["dur"].GetDouble();
  }
  return count;
}

// The vendor_kernels run on a real trace, against the independent count of its kernels.
void check_real_trace(const fs::path& trace) {
  TempDir plain, vendor;
  const auto a = run_loupe({"analyze", "--trace", trace.string(), "-o", plain.path().string(), "-q",
                            "--platform", "MI300X"});
  REQUIRE(a.exit_code == 0);
  const auto r =
      run_loupe({"analyze", "--trace", trace.string(), "-o", vendor.path().string(), "-q",
                 "--platform", "MI300X", "--plugin-dir", plugin_dir("vendor_kernels"), "--strict"});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const RawCount raw = raw_gemm_kernels(trace);
  REQUIRE(raw.kernels > 0);
  const auto run = parse_file(vendor.path() / "loupe_run.json");
  const auto& entry = vendor_entry(run, "vendor_kernels");
  WARN(trace.filename().string() << ": raw trace " << raw.kernels << " GEMM kernels, " << raw.dur_us
                                 << " us; Loupe " << entry["trace_kernels"].GetInt64()
                                 << " in the trace, " << entry["kernels"].GetInt64()
                                 << " kernels in " << entry["ops"].GetInt64() << " op rows, "
                                 << entry["gpu_time_us"].GetDouble() << " us");
  // Trace-wide, the pattern finds exactly the raw trace's GEMM kernels.
  CHECK(static_cast<std::size_t>(entry["trace_kernels"].GetInt64()) == raw.kernels);
  CHECK(std::abs(entry["trace_gpu_time_us"].GetDouble() - raw.dur_us) < 0.01);
  // The op rows hold those a host op launched; the rest is named in a warning.
  CHECK(entry["kernels"].GetInt64() > 0);
  CHECK(entry["kernels"].GetInt64() <= entry["trace_kernels"].GetInt64());
  if (entry["kernels"].GetInt64() < entry["trace_kernels"].GetInt64()) {
    CHECK_THAT(r.err, Catch::Contains("GPU ops its kernel patterns match are in no op row"));
  }
  const auto rows = lines(vendor.path() / "category_data/vendor_kernels_ops.csv");
  CHECK(rows.size() == static_cast<std::size_t>(entry["ops"].GetInt64()) + 1);
  CHECK(entry["ops"].GetInt64() > 0);
  // Each of its rows is also a row of its TraceLens category.
  std::set<std::string> tracelens_uids;
  for (const auto& f : fs::directory_iterator(vendor.path() / "category_data")) {
    const std::string file = f.path().filename().string();
    if (file.size() > 8 && file.ends_with("_ops.csv") && file != "vendor_kernels_ops.csv" &&
        file != "cpu_idle_ops.csv") {
      const auto uids = ex_uids(f.path());
      tracelens_uids.insert(uids.begin(), uids.end());
    }
  }
  for (const auto& uid : ex_uids(vendor.path() / "category_data/vendor_kernels_ops.csv")) {
    INFO("ex_UID " << uid);
    CHECK(tracelens_uids.count(uid) == 1);
  }
  // The plugin read the table: its metrics count the same rows, and their kernel time holds
  // the matched kernels' time (a row's other kernels add to it).
  const auto metrics = parse_file(vendor.path() / "category_data/vendor_kernels_metrics.json");
  CHECK(metrics["rows"].GetInt64() == entry["ops"].GetInt64());
  CHECK(metrics["kernel_time_us"].GetDouble() >= entry["gpu_time_us"].GetDouble() - 0.01);
  CHECK(analyzed_by(run, "vendor_kernels") ==
        std::pair<std::string, std::string>("vendor_kern", "OK"));
  // Its card is ranked in findings.json under its name and version: a finding of its own, or a
  // part of the finding that owns the same GPU ops (the time ledger's de-duplication).
  const auto findings = parse_file(vendor.path() / "findings.json");
  std::size_t cards = 0;
  auto check_card = [&](const rapidjson::Value& card, const rapidjson::Value& ranked) {
    ++cards;
    CHECK(std::string(card["plugin"].GetString()) == "vendor_kern");
    CHECK(std::string(card["plugin_version"].GetString()) == "2.1.0");
    CHECK(ranked["priority"].GetInt64() >= 1);
    CHECK(std::abs(card["stated_saving_ms"]["mid"].GetDouble() -
                   metrics["kernel_time_us"].GetDouble() * 0.2 / 1000.0) < 0.002);
  };
  for (const auto& f : findings["findings"].GetArray()) {
    if (std::string(f["category"].GetString()) == "vendor_kernels") check_card(f, f);
    for (const auto& p : f["parts"].GetArray()) {
      if (std::string(p["category"].GetString()) == "vendor_kernels") check_card(p, f);
    }
  }
  CHECK(cards == 1);
  // The TraceLens files are the plain run's (the output directory's path aside).
  std::size_t same = 0;
  for (const char* sub : {"perf_report_csvs", "category_data", "metadata"}) {
    for (const auto& f : fs::directory_iterator(plain.path() / sub)) {
      const std::string rel = std::string(sub) + "/" + f.path().filename().string();
      if (rel.find("_metrics.json") != std::string::npos) continue;
      INFO(rel);
      CHECK(with_dir(read_text(vendor.path() / rel), vendor.path()) ==
            with_dir(read_text(f.path()), plain.path()));
      ++same;
    }
  }
  CHECK(same >= 10);
}

}  // namespace

TEST_CASE("a vendor category by kernel-name pattern is prepared from a raw trace and analyzed",
          "[vendor][cli]") {
  TempDir tmp;
  const fs::path trace = tmp.path() / "t.json";
  loupe::test::write_text(trace, hand_written_trace());
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "-q",
                            "--plugin-dir", plugin_dir("vendor_kernels"), "--strict"});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  // Two rows: aten::mm (two calls) and aten::addmm; aten::relu's kernel does not match.
  const auto rows = lines(out / "category_data/vendor_kernels_ops.csv");
  REQUIRE(rows.size() == 3);
  CHECK(rows[1].rfind("aten::mm,", 0) == 0);
  CHECK(rows[2].rfind("aten::addmm,", 0) == 0);
  CHECK(rows[1].ends_with(",vendor_kernels,vendor_kernels"));
  // The columns of the TraceLens categories' files.
  const auto other =
      lines(out / "category_data" /
            (fs::exists(out / "category_data/gemm_ops.csv") ? "gemm_ops.csv" : "other_ops.csv"));
  CHECK(rows[0] == other[0]);
  const auto run = parse_file(out / "loupe_run.json");
  const auto& entry = vendor_entry(run, "vendor_kernels");
  CHECK(std::string(entry["plugin"].GetString()) == "vendor_kern");
  CHECK(std::string(entry["tier"].GetString()) == "compute_kernel");
  CHECK(std::string(entry["csv_file"].GetString()) == "category_data/vendor_kernels_ops.csv");
  CHECK(entry["ops"].GetInt64() == 2);
  CHECK(entry["kernels"].GetInt64() == 3);
  CHECK(entry["gpu_time_us"].GetDouble() == 45.0);
  REQUIRE(entry["selectors"].Size() == 1);
  CHECK(std::string(entry["selectors"][0]["kernel_pattern"].GetString()) == "*gemm*|Cijk_*");
  CHECK(entry["selectors"][0]["kernels"].GetInt64() == 3);
  // The manifest stays TraceLens's: the vendor category is listed only beside it.
  CHECK(read_text(out / "category_data/category_manifest.json").find("vendor_kernels") ==
        std::string::npos);
  CHECK(analyzed_by(run, "vendor_kernels") ==
        std::pair<std::string, std::string>("vendor_kern", "OK"));
  const auto metrics = parse_file(out / "category_data/vendor_kernels_metrics.json");
  CHECK(metrics["rows"].GetInt64() == 2);
  CHECK(metrics["kernel_time_us"].GetDouble() == 45.0);
  CHECK(fs::is_regular_file(out / "category_findings/vendor_kernels_findings.md"));
  const auto findings = parse_file(out / "findings.json");
  std::size_t cards = 0;
  for (const auto& f : findings["findings"].GetArray()) {
    if (std::string(f["category"].GetString()) != "vendor_kernels") continue;
    ++cards;
    CHECK(std::string(f["plugin"].GetString()) == "vendor_kern");
    CHECK(f["priority"].GetInt64() >= 1);
    CHECK(std::abs(f["stated_saving_ms"]["mid"].GetDouble() - 0.009) < 1e-9);
  }
  CHECK(cards == 1);
}

TEST_CASE("a vendor category by op-name pattern", "[vendor][cli]") {
  TempDir tmp;
  const fs::path trace = tmp.path() / "t.json";
  loupe::test::write_text(trace, hand_written_trace());
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "-q",
                            "--plugin-dir", plugin_dir("vendor_ops")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  const auto rows = lines(out / "category_data/vendor_ops_ops.csv");
  REQUIRE(rows.size() == 2);
  CHECK(rows[1].rfind("aten::addmm,", 0) == 0);
  const auto run = parse_file(out / "loupe_run.json");
  const auto& entry = vendor_entry(run, "vendor_ops");
  CHECK(entry["ops"].GetInt64() == 1);
  CHECK(entry["kernels"].GetInt64() == 1);
  CHECK(entry["gpu_time_us"].GetDouble() == 10.0);
}

TEST_CASE("vendor categories leave compat mode's TraceLens files byte-identical", "[vendor][cli]") {
  TempDir tmp;
  const fs::path trace = tmp.path() / "t.json";
  loupe::test::write_text(trace, hand_written_trace());
  const fs::path plain = tmp.path() / "plain";
  const fs::path vendor = tmp.path() / "vendor";
  REQUIRE(run_loupe({"analyze", "--trace", trace.string(), "-o", plain.string(), "-q", "--compat",
                     "tracelens"})
              .exit_code == 0);
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", vendor.string(), "-q",
                            "--compat", "tracelens", "--plugin-dir", plugin_dir("vendor_kernels")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  std::size_t same = 0;
  for (const auto& f : fs::recursive_directory_iterator(plain)) {
    if (!f.is_regular_file()) continue;
    const std::string rel = fs::relative(f.path(), plain).string();
    // The run-level reports rank every category's findings, the vendor category's too.
    if (rel == "loupe_run.json" || rel == "findings.json" || rel == "priority_data.json" ||
        rel == "analysis.md" || rel == "report.html") {
      continue;
    }
    INFO(rel);
    CHECK(with_dir(read_text(vendor / rel), vendor) == with_dir(read_text(f.path()), plain));
    ++same;
  }
  CHECK(same >= 10);
  CHECK(lines(vendor / "category_data/vendor_kernels_ops.csv").size() == 3);
}

TEST_CASE("vendor selectors that cannot be used stop the run before any work", "[vendor][cli]") {
  TempDir tmp;
  const fs::path trace = tmp.path() / "t.json";
  loupe::test::write_text(trace, hand_written_trace());
  struct Case {
    const char* dir;
    const char* file;
    std::string why;
  };
  for (const Case& c :
       {Case{"vendor_bad_pattern", "loupe_test_vendor_bad_pattern.so",
             "kernel_pattern 'Cijk_[AB' does not compile: '[' without a closing ']' at offset 5"},
        Case{"vendor_regex", "loupe_test_vendor_regex.so",
             "kernel_pattern '(a+)+b' does not compile: regex construct '(' at offset 0"}}) {
    INFO(c.dir);
    const fs::path out = tmp.path() / c.dir;
    const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "-q",
                              "--plugin-dir", plugin_dir(c.dir)});
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains((fs::path(plugin_dir(c.dir)) / c.file).string()) &&
                          Catch::Contains("selector 0") && Catch::Contains(c.why) &&
                          Catch::Contains("stopped before any work"));
    CHECK_FALSE(fs::exists(out / "category_data"));
    CHECK_FALSE(fs::exists(out / "loupe_run.json"));
  }
}

TEST_CASE("a vendor selector that matches nothing is a warning", "[vendor][cli]") {
  TempDir tmp;
  const fs::path trace = tmp.path() / "t.json";
  loupe::test::write_text(trace, hand_written_trace());
  const fs::path out = tmp.path() / "out";
  const auto r = run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "-q",
                            "--plugin-dir", plugin_dir("vendor_no_match")});
  INFO(r.err);
  REQUIRE(r.exit_code == 0);
  CHECK_THAT(r.err, Catch::Contains("vendor category 'vendor_none' of plugin 'vendor_none'") &&
                        Catch::Contains("kernel_pattern 'no_such_kernel_*' matches nothing"));
  const auto run = parse_file(out / "loupe_run.json");
  const auto& entry = vendor_entry(run, "vendor_none");
  CHECK(entry["ops"].GetInt64() == 0);
  CHECK(entry["kernels"].GetInt64() == 0);
  CHECK(lines(out / "category_data/vendor_none_ops.csv").size() == 1);  // the header
  CHECK(analyzed_by(run, "vendor_none") ==
        std::pair<std::string, std::string>("vendor_none", "NO_DATA"));
}

TEST_CASE("a vendor category on the bundled sample counts what the raw trace holds",
          "[vendor][cli]") {
  check_real_trace(loupe::test::bundled_data_dir() /
                   "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
}

TEST_CASE("a vendor category on pack traces counts what the raw trace holds", "[vendor][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  check_real_trace(shared / "data/traces/h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz");
}

TEST_CASE(
    "loupe plugins shows each category's primary, contributing, displaced and shadowed "
    "plugins",
    "[vendor][cli]") {
  const std::vector<std::string> dirs = {"--plugin-dir", plugin_dir("vendor_kernels"),
                                         "--plugin-dir", plugin_dir("contributes_gemm"),
                                         "--plugin-dir", plugin_dir("vendor_primary")};
  std::vector<std::string> args = {"plugins"};
  args.insert(args.end(), dirs.begin(), dirs.end());
  const auto plain = run_loupe(args);
  INFO(plain.out << plain.err);
  REQUIRE(plain.exit_code == 0);
  CHECK_THAT(plain.out, Catch::Contains("Roles by category:\n") &&
                            Catch::Contains("  gemm: primary gemm; contributing vendor_gemm; "
                                            "shadowed vendor_gemm_primary\n") &&
                            Catch::Contains("  vendor_kernels: primary vendor_kern  (vendor "
                                            "category: kernel '*gemm*|Cijk_*')\n"));
  args.insert(args.end(), {"--prefer", "vendor_gemm_primary", "--json"});
  const auto preferred = run_loupe(args);
  REQUIRE(preferred.exit_code == 0);
  rapidjson::Document doc;
  doc.Parse(preferred.out.c_str());
  REQUIRE(doc.IsObject());
  const auto& gemm = doc["roles"]["gemm"];
  CHECK(std::string(gemm["primary"].GetString()) == "vendor_gemm_primary");
  REQUIRE(gemm["contributing"].Size() == 1);
  CHECK(std::string(gemm["contributing"][0].GetString()) == "vendor_gemm");
  REQUIRE(gemm["displaced"].Size() == 1);
  CHECK(std::string(gemm["displaced"][0].GetString()) == "gemm");
  CHECK(gemm["shadowed"].Size() == 0);
  CHECK(std::string(doc["roles"]["vendor_kernels"]["selectors"][0].GetString()) ==
        "kernel '*gemm*|Cijk_*'");
  // A selector that does not compile: exit 2 here too, naming the file.
  const auto bad = run_loupe({"plugins", "--plugin-dir", plugin_dir("vendor_bad_pattern")});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err, Catch::Contains("loupe_test_vendor_bad_pattern.so: plugin 'vendor_bad', "
                                      "selector 0 (category 'vendor_bad'): kernel_pattern"));
}

TEST_CASE("a displaced bundled analyzer runs as a contributor when asked", "[vendor][cli]") {
  const fs::path trace =
      loupe::test::bundled_data_dir() / "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  TempDir tmp;
  const fs::path plain = tmp.path() / "plain";
  REQUIRE(run_loupe({"analyze", "--trace", trace.string(), "-o", plain.string(), "-q", "--platform",
                     "MI300X", "--only", "gemm"})
              .exit_code == 0);
  const fs::path config = tmp.path() / "config.json";
  loupe::test::write_text(config, R"({"prefer": ["vendor_gemm_primary:gemm"],
                                      "displaced_contribute": true})");
  for (const std::vector<std::string>& way :
       {std::vector<std::string>{"--prefer", "vendor_gemm_primary", "--displaced-contribute"},
        std::vector<std::string>{"--config", config.string()}}) {
    INFO(way[0]);
    const fs::path out = tmp.path() / ("out" + way[0]);
    std::vector<std::string> args = {"analyze",    "--trace",      trace.string(),
                                     "-o",         out.string(),   "-q",
                                     "--platform", "MI300X",       "--only",
                                     "gemm",       "--plugin-dir", plugin_dir("vendor_primary")};
    args.insert(args.end(), way.begin(), way.end());
    const auto r = run_loupe(args);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto run = parse_file(out / "loupe_run.json");
    REQUIRE(run["displaced"].Size() == 1);
    CHECK(std::string(run["displaced"][0]["plugin"].GetString()) == "gemm");
    CHECK(std::string(run["displaced"][0]["runs_as"].GetString()) == "contributing");
    CHECK(analyzed_by(run, "gemm").first == "vendor_gemm_primary");
    // The bundled analyzer's contribution is its plain run's primary output, under its own name.
    CHECK(read_text(out / "category_data/gemm.gemm_metrics.json") ==
          read_text(plain / "category_data/gemm_metrics.json"));
    CHECK_THAT(read_text(out / "category_findings/gemm_findings.md"), Catch::Contains("Slow op"));
    // Its cards are ranked, as contributions, with its name and version.
    const auto findings = parse_file(out / "findings.json");
    std::size_t contributed = 0;
    for (const auto& f : findings["findings"].GetArray()) {
      if (!f.HasMember("role")) continue;
      ++contributed;
      CHECK(std::string(f["plugin"].GetString()) == "gemm");
      CHECK(std::string(f["role"].GetString()) == "contributing");
      CHECK(f["priority"].GetInt64() >= 1);
    }
    CHECK(contributed >= 1);
  }
  // The key's type is checked before any work.
  loupe::test::write_text(config, R"({"displaced_contribute": "yes"})");
  const auto bad = run_loupe({"analyze", "--trace", trace.string(), "-o",
                              (tmp.path() / "bad").string(), "--config", config.string()});
  CHECK(bad.exit_code == 2);
  CHECK_THAT(bad.err,
             Catch::Contains(config.string() + ": \"displaced_contribute\" must be true or false"));
}
