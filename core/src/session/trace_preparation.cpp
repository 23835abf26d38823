#include "trace_preparation.hpp"

#include <malloc.h>

#include <chrono>
#include <future>
#include <optional>
#include <utility>

#include <spdlog/spdlog.h>

#include "capture_record.hpp"
#include "locale_caches.hpp"
#include "loupe/core/trace/pseudo_ops.hpp"
#include "trace_loading.hpp"

namespace loupe::core::session {

namespace {

bool compat_tracelens(const SessionOptions& options) {
  return options.analyze.compat == Compat::TraceLens;
}

// The preparation's options and both platforms; an Error when a platform cannot be used.
Expected<prepare::PrepareOptions> prepare_options(const TraceInputs& inputs,
                                                  const SessionOptions& options,
                                                  const trace::LoadResult& loaded,
                                                  const trace::LoadResult* loaded2,
                                                  std::chrono::steady_clock::time_point start) {
  prepare::PrepareOptions prepare;
  prepare.trace_path = inputs.trace;
  prepare.output_dir = options.analyze.output_dir;
  prepare.compat_tracelens = compat_tracelens(options);
  prepare.vendor_selectors = options.vendor_selectors;
  // Between steps, the pages a step freed go back to the system: a step's scratch (the perf
  // models', the fusion scan's) is freed in pieces the next step's tables do not fill, and would
  // otherwise stay resident up to the peak (docs/performance.md, "Big traces").
  prepare.progress = [start, quiet = options.quiet](std::string_view step) {
    ::malloc_trim(0);
    if (!quiet) spdlog::info("{} ({:.2f} s)", step, seconds_since(start));
  };
  try {
    prepare.arch = prepare::select_arch_for_devices(inputs.arch_file, inputs.platform,
                                                    prepare::trace_devices(loaded.model));
    if (loaded2 != nullptr) {
      prepare.arch2 = select_trace2_arch(inputs, prepare.compat_tracelens, *loaded2, prepare.arch);
    }
  } catch (const std::exception& e) {
    return Error{ErrorKind::Input, e.what()};
  }
  spdlog::info("using {}{}", loaded2 != nullptr ? "for trace 1 " : "", prepare.arch.reason);
  if (prepare.arch2) {
    spdlog::info("using for trace 2 {}", prepare.arch2->reason);
  } else if (loaded2 != nullptr) {
    spdlog::info("using for trace 2 the platform of trace 1 (--compat tracelens)");
  }
  return prepare;
}

// Pseudo ops (docs/contracts/trace_model.md §2.10) into a freshly built tree, in both modes;
// default mode leaves the matmul_ogs MoE to Loupe's own model of the whole op
// (docs/deviations.md, "MXFP4/FP8 MoE matmuls").
void add_pseudo_ops(trace::TraceModel& model, trace::EventTree& tree, const SessionOptions& options,
                    std::string_view which) {
  trace::PseudoOpOptions pseudo = trace::PseudoOpOptions::from_environment();
  pseudo.moe_triton_unfused = compat_tracelens(options);
  const trace::PseudoOpReport report = trace::add_pseudo_ops(model, tree, pseudo);
  if (report.blocked_by_paged_attention) {
    spdlog::info("{}no pseudo ops: the trace has a paged-attention op (as TraceLens)", which);
  }
  for (const auto& run : report.runs) {
    if (run.outcome == trace::RecognizerOutcome::kFailed) {
      spdlog::warn("{}pseudo ops {}: stopped after {} ({})", which,
                   trace::pseudo_op_kind_name(run.kind), run.created, run.failure);
    } else if (run.created > 0) {
      spdlog::info("{}pseudo ops {}: {} created", which, trace::pseudo_op_kind_name(run.kind),
                   run.created);
    }
  }
}

// The capture traces, loaded first: one that cannot be read stops the session before the main
// trace loads.
Expected<std::vector<trace::CaptureTrace>> load_captures(const TraceInputs& inputs,
                                                         const SessionOptions& options) {
  std::vector<trace::CaptureTrace> captures;
  for (const auto& path : inputs.capture_traces) {
    auto one = load_trace_file(path, options);
    if (!one) return one.error();
    captures.push_back({path, std::move(one->model)});
  }
  return captures;
}

}  // namespace

Expected<PreparedTrace> prepare_trace(const TraceInputs& inputs, const SessionOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  fill_ctype_tables();  // before any helper thread compiles a std::regex (locale_caches.hpp)
  auto captures = load_captures(inputs, options);
  if (!captures) return captures.error();
  auto loaded = load_trace_file(inputs.trace, options);
  if (!loaded) return loaded.error();

  PreparedTrace out;
  trace::TreeOptions tree_options = prepare::prepare_tree_options();
  if (!captures->empty()) {
    const auto attribution = trace::attribute_capture_traces(loaded->model, *captures);
    captures->clear();
    log_capture_attribution(attribution);
    out.capture_traces = capture_record(attribution, loaded->model);
    tree_options.gpu_relinks = attribution.links;
  }
  std::optional<trace::LoadResult> loaded2;
  if (inputs.trace2) {
    auto second = load_trace_file(*inputs.trace2, options);
    if (!second) return second.error();
    loaded2 = std::move(*second);
  }
  if (options.on_loaded) {
    if (auto error = options.on_loaded(loaded->model)) return *error;
  }
  auto prepare = prepare_options(inputs, options, *loaded, loaded2 ? &*loaded2 : nullptr, start);
  if (!prepare) return prepare.error();

  if (!options.quiet) spdlog::info("building the event tree ({:.2f} s)", seconds_since(start));
  auto tree = trace::EventTree::build(loaded->model, tree_options);
  add_pseudo_ops(loaded->model, tree, options, loaded2 ? "trace 1: " : "");
  std::optional<trace::EventTree> tree2;
  if (loaded2) {
    tree2 = trace::EventTree::build(loaded2->model, prepare::prepare_tree_options());
    add_pseudo_ops(loaded2->model, *tree2, options, "trace 2: ");
  }
  // The trace views' documents (and default mode's memory timeline CSV, from the same timeline)
  // read the model and the tree and nothing the preparation writes: they are built on a second
  // thread while the preparation runs. The views' tables and the run graph, most of the views'
  // memory, come after it, so they are not alive through its peak (docs/performance.md, "Big
  // traces"). A failed preparation waits for the thread before it returns (the future's
  // destructor).
  prepare::TraceViewsOptions views_options;
  views_options.run_graph = !compat_tracelens(options);  // the what-if model: default mode only
  views_options.memory_csv = !compat_tracelens(options);
  auto summaries = std::async(std::launch::async, [&model = loaded->model, &tree, views_options] {
    return prepare::build_trace_summaries(model, tree, views_options);
  });
  try {
    out.directory = loaded2 ? prepare::prepare_comparative_directory(
                                  {loaded->model, tree}, {loaded2->model, *tree2}, *prepare)
                            : prepare::prepare_analysis_directory(loaded->model, tree, *prepare);
  } catch (const prepare::PrepareError& e) {
    std::string what = inputs.trace.string();
    if (inputs.trace2) what += " vs " + inputs.trace2->string();
    return Error{ErrorKind::Input, what + ": " + e.what()};
  }
  for (const auto& note : out.directory.notes) spdlog::warn("{}", note);
  out.views = summaries.get();
  if (!out.views.memory_csv.empty()) {
    prepare::add_memory_timeline_csv(out.directory, loaded2.has_value(),
                                     std::exchange(out.views.memory_csv, {}));
  }
  ::malloc_trim(0);  // the preparation's last step's scratch, as between its steps
  // The what-if model (default mode, docs/what-if.md) on the second thread, the tables here.
  std::future<std::shared_ptr<const whatif::RunGraph>> run_graph;
  if (views_options.run_graph) {
    run_graph = std::async(std::launch::async, [&model = loaded->model, &tree] {
      return std::make_shared<const whatif::RunGraph>(whatif::RunGraph::build(model, tree));
    });
  }
  prepare::add_trace_tables(out.views, loaded->model, tree);
  if (run_graph.valid()) out.views.run_graph = run_graph.get();
  if (!compat_tracelens(options)) {
    out.views.op_groups = prepare::op_groups_table(out.directory.op_groups);
  }
  if (!options.quiet) {
    spdlog::info("prepared {} files in memory ({:.2f} s)", out.directory.files.size(),
                 seconds_since(start));
  }
  return out;
}

}  // namespace loupe::core::session
