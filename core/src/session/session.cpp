#include "loupe/core/session/session.hpp"

#include <malloc.h>

#include <spdlog/spdlog.h>

#include "loupe/core/model/analysis_dir.hpp"
#include "loupe/core/prepare/trace_views.hpp"
#include "loupe/core/run/run_outputs.hpp"
#include "trace_preparation.hpp"

namespace loupe::core {

namespace fs = std::filesystem;

struct Session::State {
  SessionOptions options;
  Model model;
  // from_trace: the analysis directory to write (dropped once written); nullopt: from_directory.
  std::optional<prepare::PreparedDirectory> prepared;
  fs::path input_dir;  // from_directory: the directory read
  bool ran = false;
};

namespace {

ArchSet arch_set_for(const SessionOptions& options) {
  return options.analyze.compat == Compat::TraceLens ? ArchSet::kTraceLens : ArchSet::kAll;
}

// An impossible request (an --only name no plugin takes, a manifest of the wrong shape) stops
// before any file is touched.
std::optional<Error> check_plan(const Model& model, const PluginSet& plugins,
                                const SessionOptions& options, const fs::path& named) {
  try {
    std::vector<std::string> unhandled;
    (void)plan_runs(model, plugins, options.analyze.only, unhandled);
  } catch (const PlanError& e) {
    return Error{ErrorKind::Plan, named.string() + ": " + e.what()};
  }
  return std::nullopt;
}

std::optional<Error> remove_previous(const fs::path& dir, PreviousRunScope scope) {
  try {
    if (const auto n = remove_previous_run(dir, scope)) {
      spdlog::info("removed the {} files of the previous run in {}", n, dir.string());
    }
  } catch (const std::exception& e) {
    return Error{ErrorKind::Output, e.what()};
  }
  return std::nullopt;
}

// from_trace: the previous run's files go, then the prepared directory is written; the model
// already holds every file, so nothing is read back.
std::optional<Error> write_prepared(Session::State& state) {
  const fs::path& out = state.options.analyze.output_dir;
  if (auto error = remove_previous(out, PreviousRunScope::Everything)) return error;
  try {
    prepare::write_prepared_directory(*state.prepared, out);
  } catch (const std::exception& e) {
    return Error{ErrorKind::Output, e.what()};
  }
  spdlog::info("wrote {} files into {}", state.prepared->files.size(), out.string());
  for (const auto& file : state.prepared->files) {
    state.options.analyze.prepared_files.push_back(file.relative_path);
  }
  state.prepared.reset();
  ::malloc_trim(0);
  return std::nullopt;
}

// from_directory: plan on the outline, then remove the previous run's analyzer outputs (so no
// plugin reads them as inputs and no stale file stays), then load the directory.
std::optional<Error> load_directory(Session::State& state, const PluginSet& plugins) {
  const fs::path& dir = state.input_dir;
  if (auto error = check_plan(outline_analysis_directory(dir), plugins, state.options, dir)) {
    return error;
  }
  std::error_code ec;
  const fs::path& out = state.options.analyze.output_dir;
  const bool in_place = fs::equivalent(dir, out, ec);
  if (auto error = remove_previous(
          out, in_place ? PreviousRunScope::AnalysisOnly : PreviousRunScope::Everything)) {
    return error;
  }
  try {
    state.model = load_analysis_directory(dir, arch_set_for(state.options));
  } catch (const InputError& e) {
    return Error{ErrorKind::Input, e.what()};
  }
  for (const auto& [name, why] : state.model.load_errors()) spdlog::warn("cannot load {}", why);
  return std::nullopt;
}

}  // namespace

Session::Session(std::unique_ptr<State> state) : state_(std::move(state)) {}
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;
Session::~Session() = default;

const Model& Session::model() const { return state_->model; }

Expected<Session> Session::from_trace(const TraceInputs& inputs, SessionOptions options) {
  if (options.analyze.output_dir.empty()) {
    return Error{ErrorKind::Output,
                 "no output directory for the analysis of " + inputs.trace.string()};
  }
  auto prepared = session::prepare_trace(inputs, options);
  if (!prepared) return prepared.error();
  auto state = std::make_unique<State>();
  std::vector<AnalysisFile> files;
  files.reserve(prepared->directory.files.size());
  for (const auto& file : prepared->directory.files) {
    files.push_back({file.relative_path, file.bytes, file.table});
  }
  state->model = load_analysis_files(options.analyze.output_dir, files, arch_set_for(options));
  for (const auto& [name, why] : state->model.load_errors()) spdlog::warn("cannot load {}", why);
  prepare::install_trace_views(state->model, prepared->views);
  options.analyze.run_graph = prepared->views.run_graph;
  options.analyze.capture_traces = std::move(prepared->capture_traces);
  state->prepared = std::move(prepared->directory);
  state->options = std::move(options);
  // The trace model and tree are gone: hand their pages back, so each forked plugin child maps a
  // small heap (fewer pages to share, fewer copy-on-write faults).
  ::malloc_trim(0);
  return Session(std::move(state));
}

Expected<Session> Session::from_directory(const fs::path& dir, SessionOptions options) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    return Error{ErrorKind::Input, dir.string() + (fs::exists(dir, ec) ? ": not a directory"
                                                                       : ": no such directory")};
  }
  if (options.analyze.output_dir.empty()) options.analyze.output_dir = dir;
  auto state = std::make_unique<State>();
  state->input_dir = dir;
  state->options = std::move(options);
  return Session(std::move(state));
}

Expected<AnalyzeReport> Session::run(const PluginSet& plugins) {
  State& state = *state_;
  if (state.ran) return Error{ErrorKind::Plan, "this session has already run"};
  state.ran = true;
  if (state.prepared) {
    if (auto error =
            check_plan(state.model, plugins, state.options, state.options.analyze.output_dir)) {
      return *error;
    }
    if (auto error = write_prepared(state)) return *error;
  } else if (auto error = load_directory(state, plugins)) {
    return *error;
  }
  const fs::path& out = state.options.analyze.output_dir;
  std::error_code ec;
  fs::create_directories(out, ec);
  if (ec) return Error{ErrorKind::Output, "cannot create " + out.string() + ": " + ec.message()};
  try {
    return run_analysis(state.model, plugins, state.options.analyze);
  } catch (const PlanError& e) {
    const fs::path& named = state.input_dir.empty() ? out : state.input_dir;
    return Error{ErrorKind::Plan, named.string() + ": " + e.what()};
  }
}

}  // namespace loupe::core
