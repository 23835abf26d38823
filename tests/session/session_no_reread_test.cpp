// A run keeps what it writes in memory: no file of the output directory is opened for reading
// after the run wrote it (docs/architecture.md, "One run of `loupe analyze DIR`", step 5). Every
// open of the directory's files is seen through inotify, the host's and the plugin children's
// alike, so reading a metrics or findings file back (the validator, the report) fails here.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "cli_runner.hpp"
#include "file_events.hpp"
#include "loupe/core/session/session.hpp"
#include "loupe/layout.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
using namespace loupe;
using test::FileEvents;

namespace {

core::PluginSet bundled_plugins() {
  core::DiscoveryOptions discovery;
  return core::discover_plugins(
      {{fs::path(LOUPE_BUNDLED_PLUGIN_DIR), core::SearchOrigin::Explicit}}, discovery);
}

// The output directory and every folder a run writes into, made before the run so that each is
// watched from its first file on.
void watch_output(FileEvents& events, const fs::path& out) {
  for (const char* dir : {"", "category_data", "category_findings", "system_findings", "metadata",
                          "perf_report_csvs"}) {
    const fs::path path = *dir == '\0' ? out : out / dir;
    fs::create_directories(path);
    REQUIRE(events.watch(path));
  }
}

void check_no_reread(FileEvents& events, const fs::path& out) {
  const auto reread = events.reread_after_write(out);
  REQUIRE_FALSE(events.overflowed());
  INFO("opened for reading after the run wrote them: " << test::listed(reread));
  CHECK(reread.empty());
  CHECK(events.unwatched_file(out).empty());
  // The watch sees a read-back: reading a file the run wrote is reported.
  std::ifstream(out / layout::metrics_path("gemm")).get();
  CHECK(events.reread_after_write(out) == std::set<std::string>{layout::metrics_path("gemm")});
}

core::TraceInputs sample_inputs() {
  core::TraceInputs inputs;
  inputs.trace =
      test::bundled_data_dir() / "samples" / "mi300" / "Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  return inputs;
}

core::SessionOptions session_options(const fs::path& out, Compat compat) {
  core::SessionOptions options;
  options.analyze.output_dir = out;
  options.analyze.compat = compat;
  options.quiet = true;
  return options;
}

}  // namespace

TEST_CASE("A run from a trace reads back none of the files it writes", "[session]") {
  const Compat compat = GENERATE(Compat::None, Compat::TraceLens);
  test::TempDir tmp;
  const fs::path out = tmp.path() / "run";
  const auto plugins = bundled_plugins();
  auto session = core::Session::from_trace(sample_inputs(), session_options(out, compat));
  REQUIRE(session.has_value());

  FileEvents events;
  REQUIRE(events.ok());
  watch_output(events, out);
  auto report = session->run(plugins);
  REQUIRE(report.has_value());
  CHECK_FALSE(report->any_error());
  // The run wrote the prepared directory, every category's metrics and findings, and the report.
  CHECK(fs::is_regular_file(out / layout::metrics_path("gemm")));
  CHECK(fs::is_regular_file(out / "analysis.md"));
  check_no_reread(events, out);
  CHECK(events.written() >= 40);
}

TEST_CASE("Re-analyzing a directory in place reads its inputs, never what the run wrote",
          "[session]") {
  test::TempDir tmp;
  const fs::path out = tmp.path() / "run";
  const auto plugins = bundled_plugins();
  {
    auto first = core::Session::from_trace(sample_inputs(), session_options(out, Compat::None));
    REQUIRE(first.has_value());
    REQUIRE(first->run(plugins).has_value());
  }
  FileEvents events;
  REQUIRE(events.ok());
  watch_output(events, out);
  auto session = core::Session::from_directory(out, session_options(out, Compat::None));
  REQUIRE(session.has_value());
  auto report = session->run(plugins);
  REQUIRE(report.has_value());
  CHECK_FALSE(report->any_error());
  check_no_reread(events, out);
  CHECK(events.written() >= 20);  // the metrics, findings and report files
}
