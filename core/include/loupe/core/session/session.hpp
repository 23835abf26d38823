// The one façade of a Loupe analysis: from a raw trace (or an analysis directory) to the
// analyzers' findings, the report and the run record, in memory. The `loupe analyze` command
// only parses its options, calls it and prints; a program can embed it the same way
// (docs/architecture.md, "Embedding Loupe").
//
//   auto plugins = core::discover_plugins(core::plugin_search_path({}), {});
//   core::SessionOptions options;
//   options.analyze.output_dir = "out";
//   core::TraceInputs inputs;
//   inputs.trace = "trace.json.gz";
//   auto session = core::Session::from_trace(inputs, options);
//   if (!session) return fail(session.error());
//   auto report = session->run(plugins);
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/error.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"
#include "loupe/core/prepare/vendor_categories.hpp"
#include "loupe/core/run/analysis_runner.hpp"

namespace loupe::core {

namespace trace {
class TraceModel;
}

// What `--trace` reads: the trace, optionally a second trace to compare against or the traces of
// the GPU-graph captures it replays, and the platform of each.
struct TraceInputs {
  std::filesystem::path trace;
  std::optional<std::filesystem::path> trace2;  // comparative scope
  std::vector<std::filesystem::path> capture_traces;
  // Trace 1's platform: a bundled name (any case) or a spec file; neither: the trace's own
  // deviceProperties, else MI300X.
  std::optional<std::string> platform;
  std::optional<std::filesystem::path> arch_file;
  // Trace 2's: neither means its own deviceProperties (default mode), else trace 1's.
  std::optional<std::string> platform2;
  std::optional<std::filesystem::path> arch_file2;
};

// Progress of one trace load: (bytes of JSON read so far, size of the file).
using LoadProgress = std::function<void(std::uint64_t, std::uint64_t)>;

struct SessionOptions {
  AnalyzeOptions analyze;  // output_dir is required; the session fills the trace's own fields
  // No step-by-step progress in the log.
  bool quiet = false;
  // Makes the progress callback for loading `path` (of `file_size` bytes); empty: none.
  std::function<LoadProgress(const std::filesystem::path& path, std::uint64_t file_size)>
      load_progress;
  // Vendor categories the trace is prepared for: prepare::vendor_selectors() of the plugins the
  // session will run (docs/plugin-abi.md, "Vendor categories"); empty: none.
  std::vector<prepare::VendorSelector> vendor_selectors;
  // Called with trace 1 once it is loaded, before it is prepared (the rank-set run takes each
  // rank's collectives here, docs/multirank.md). An Error stops the session.
  std::function<std::optional<Error>(const trace::TraceModel&)> on_loaded;
};

class Session {
 public:
  // Loads the traces, prepares the analysis directory in memory and builds the model the
  // analyzers read. Nothing is written yet: run() writes the directory as its first output.
  static Expected<Session> from_trace(const TraceInputs& inputs, SessionOptions options);
  // An existing analysis directory (TraceLens's or Loupe's). Nothing is read yet: run() plans on
  // the directory's outline first, so an impossible request touches no file.
  static Expected<Session> from_directory(const std::filesystem::path& dir, SessionOptions options);

  Session(Session&&) noexcept;
  Session& operator=(Session&&) noexcept;
  ~Session();

  // Plans the analyzers, removes the previous run's files from the output directory, writes the
  // prepared directory (from_trace), runs the analyzers and writes the run's outputs. Category
  // failures are in the report (AnalyzeReport::any_error); an Error means nothing ran. Once.
  Expected<AnalyzeReport> run(const PluginSet& plugins);

  // The model the analyzers read (empty for from_directory until run()).
  const Model& model() const;

  struct State;  // defined in core/src/session/session.cpp only

 private:
  explicit Session(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace loupe::core
