// A program that embeds Loupe through core::Session alone: a raw trace in, the analyzers'
// findings out, errors as values, and the model built in memory equal to the directory written.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "loupe/core/model/analysis_dir.hpp"
#include "loupe/core/session/session.hpp"
#include "loupe/json_value.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using namespace loupe;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "loupe-session-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

fs::path sample_trace() {
  return test::bundled_data_dir() / "samples" / "mi300" / "Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
}

core::TraceInputs inputs(const fs::path& trace, std::optional<std::string> platform = {}) {
  core::TraceInputs in;
  in.trace = trace;
  in.platform = std::move(platform);
  return in;
}

core::PluginSet bundled_plugins() {
  core::DiscoveryOptions discovery;
  return core::discover_plugins(
      {{fs::path(LOUPE_BUNDLED_PLUGIN_DIR), core::SearchOrigin::Explicit}}, discovery);
}

std::string serialize(const rapidjson::Value& value) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  value.Accept(writer);
  return buffer.GetString();
}

std::string serialize(const core::CsvTable& table) {
  std::string out;
  for (size_t c = 0; c < table.column_count(); ++c) out += table.column_name(c) + ",";
  out += "\n";
  for (size_t r = 0; r < table.row_count(); ++r) {
    for (size_t c = 0; c < table.column_count(); ++c) {
      const auto cell = table.cell(r, c);
      out += std::to_string(static_cast<int>(cell.kind)) + ":" + std::string(cell.text) + ",";
    }
    out += "\n";
  }
  return out;
}

// Every prepared document and table of a model, as text (the trace views and arch specs, which
// are not files of the directory, left out).
std::map<std::string, std::string> prepared_contents(const core::Model& model) {
  std::map<std::string, std::string> out;
  for (const auto& name : model.document_names()) {
    if (name.rfind("arch/", 0) == 0 || name.rfind("trace/", 0) == 0) continue;
    if (name.find("_metrics.json") != std::string::npos) continue;
    out[name] = serialize(*model.document(name));
  }
  for (const auto& name : model.table_names()) {
    if (name.rfind("trace/", 0) == 0) continue;
    out[name] = serialize(*model.table(name));
  }
  return out;
}

std::shared_ptr<const rapidjson::Document> read_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return core::parse_json_document(text.str());
}

}  // namespace

TEST_CASE("A program embeds Session: a raw trace to ranked findings without the CLI", "[session]") {
  TempDir out;
  const auto plugins = bundled_plugins();
  REQUIRE(plugins.plugins.size() >= 8);
  core::SessionOptions options;
  options.analyze.output_dir = out.path / "run";
  options.quiet = true;
  auto session = core::Session::from_trace(inputs(sample_trace()), options);
  REQUIRE(session.has_value());
  // Prepared in memory: the model holds the directory before anything is written.
  CHECK(session->model().table("perf_report_csvs/ops_summary.csv") != nullptr);
  CHECK(session->model().document("category_data/category_manifest.json") != nullptr);
  CHECK_FALSE(fs::exists(out.path / "run"));
  const auto in_memory = prepared_contents(session->model());

  auto report = session->run(plugins);
  REQUIRE(report.has_value());
  CHECK_FALSE(report->any_error());
  size_t categories = 0;
  for (const auto& p : report->plugins) categories += p.categories.size();
  CHECK(categories >= 8);

  // The outputs on disk are the report's: one stored value for the top finding.
  const auto written = read_json(out.path / "run" / "findings.json");
  const Json* findings = report->run_findings.find("findings");
  REQUIRE(findings != nullptr);
  REQUIRE(findings->size() >= 3);
  const Json& top = findings->as_array()[0];
  const auto& top_written = (*written)["findings"][0];
  CHECK(top.find("id")->as_string() == top_written["id"].GetString());
  CHECK(top.find("saving_ms")->find("mid")->as_double() ==
        top_written["saving_ms"]["mid"].GetDouble());
  CHECK(top.find("saving_ms")->find("mid")->as_double() > 0.0);
  for (const char* file :
       {"loupe_run.json", "analysis.md", "priority_data.json",
        "category_data/category_manifest.json", "perf_report_csvs/gpu_timeline.csv"}) {
    CHECK(fs::is_regular_file(out.path / "run" / file));
  }

  // What the run analyzed is exactly what it wrote: the directory, loaded back from disk, holds
  // the same documents and tables, cell for cell.
  // Written by the run itself (the run report's inferred model), not by the preparation.
  const std::set<std::string> run_outputs{"metadata/model_info.json"};
  const auto from_disk = prepared_contents(core::load_analysis_directory(out.path / "run"));
  REQUIRE(in_memory.size() >= 20);
  for (const auto& [name, text] : from_disk) {
    INFO(name << " is on disk; the run wrote it, or it was prepared and not in the model");
    CHECK((in_memory.count(name) == 1 || run_outputs.count(name) == 1));
  }
  size_t equal = 0;
  for (const auto& [name, text] : in_memory) {
    const auto it = from_disk.find(name);
    INFO(name);
    REQUIRE(it != from_disk.end());
    CHECK(it->second == text);
    equal += it->second == text ? 1 : 0;
  }
  CHECK(equal == in_memory.size());

  // A session runs once.
  const auto again = session->run(plugins);
  REQUIRE_FALSE(again.has_value());
  CHECK(again.error().kind == core::ErrorKind::Plan);
}

TEST_CASE("Session errors are values naming the file; nothing is written", "[session]") {
  TempDir out;
  core::SessionOptions options;
  options.analyze.output_dir = out.path / "run";
  options.quiet = true;

  const fs::path not_trace = out.path / "notes.json";
  std::ofstream(not_trace) << "{\"hello\": 1}";
  auto session = core::Session::from_trace(inputs(not_trace), options);
  REQUIRE_FALSE(session.has_value());
  CHECK(session.error().kind == core::ErrorKind::Input);
  CHECK(session.error().message.find(not_trace.string()) != std::string::npos);

  auto missing = core::Session::from_trace(inputs(out.path / "absent.json.gz"), options);
  REQUIRE_FALSE(missing.has_value());
  CHECK(missing.error().message.find("absent.json.gz") != std::string::npos);

  auto bad_platform = core::Session::from_trace(inputs(sample_trace(), "Z9000"), options);
  REQUIRE_FALSE(bad_platform.has_value());
  CHECK(bad_platform.error().kind == core::ErrorKind::Input);
  CHECK(bad_platform.error().message.find("Z9000") != std::string::npos);

  auto no_dir = core::Session::from_directory(out.path / "nowhere", options);
  REQUIRE_FALSE(no_dir.has_value());
  CHECK(no_dir.error().message == (out.path / "nowhere").string() + ": no such directory");

  core::SessionOptions no_output;
  auto unplaced = core::Session::from_trace(inputs(sample_trace()), no_output);
  REQUIRE_FALSE(unplaced.has_value());
  CHECK(unplaced.error().kind == core::ErrorKind::Output);

  CHECK_FALSE(fs::exists(out.path / "run"));
}

TEST_CASE("Session from an analysis directory re-analyzes it in place", "[session]") {
  TempDir out;
  const auto plugins = bundled_plugins();
  core::SessionOptions options;
  options.analyze.output_dir = out.path / "run";
  options.quiet = true;
  {
    auto first = core::Session::from_trace(inputs(sample_trace()), options);
    REQUIRE(first.has_value());
    REQUIRE(first->run(plugins).has_value());
  }
  const auto before = read_json(out.path / "run" / "findings.json");
  core::SessionOptions again;
  again.quiet = true;
  auto session = core::Session::from_directory(out.path / "run", again);
  REQUIRE(session.has_value());
  auto report = session->run(plugins);
  REQUIRE(report.has_value());
  const auto after = read_json(out.path / "run" / "findings.json");
  // The directory alone has no run graph (the raw trace's timeline), so savings are not
  // step-checked; the measured run is the same.
  REQUIRE((*after)["findings"].Size() >= 3);
  CHECK((*after)["run"]["total_time_ms"].GetDouble() ==
        (*before)["run"]["total_time_ms"].GetDouble());
  CHECK((*after)["run"]["total_time_ms"].GetDouble() > 1.0);
  CHECK(fs::is_regular_file(out.path / "run" / "loupe_run.json"));
}
