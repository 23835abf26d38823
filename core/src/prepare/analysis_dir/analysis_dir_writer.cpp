// The pipeline behind `loupe analyze --trace`: event tree, perf report CSVs, category data,
// metadata and manifest, computed in memory and then written file by file.
#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/layout.hpp"

#include <algorithm>
#include <exception>
#include <future>
#include <iterator>

#include "category_split.hpp"
#include "loupe/core/model/csv_table.hpp"
#include "loupe/core/prepare/coll_analysis.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/perf_sheets.hpp"
#include "loupe/core/prepare/trace_diff.hpp"
#include "loupe/core/prepare/unified_perf_summary.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/util/atomic_file.hpp"
#include "metadata_documents.hpp"
#include "trace2_summary.hpp"
#include "vendor_category_split.hpp"

namespace loupe::core::prepare {
namespace {

namespace fs = std::filesystem;
using analysis_dir::DocumentContext;

std::string recorded_path(const fs::path& p) {
  std::error_code ec;
  const fs::path abs = fs::absolute(p, ec);
  return (ec ? p : abs.lexically_normal()).string();
}

class Pipeline {
 public:
  Pipeline(const trace::TraceModel& model, const trace::EventTree& tree,
           const PrepareOptions& options, const TraceSide* trace2)
      : model_(model), tree_(tree), options_(options), trace2_(trace2) {}

  PreparedDirectory run() {
    const trace::EventTree& tree = tree_;
    out_.gpu_only = tree.gpu_only();
    if (trace2_ != nullptr && (tree.gpu_only() || trace2_->tree.gpu_only())) {
      throw PrepareError(std::string("comparing two traces needs host (CPU) ops in both, and ") +
                         (tree.gpu_only() ? "the first" : "the second") +
                         " trace has GPU events only");
    }
    const std::string report_dir = layout::trace1_report_dir(comparative());
    if (const std::uint64_t missing = tree.stats().graph_launches_without_kernels; missing > 0) {
      note(std::to_string(missing) +
           " GPU-graph launch(es) (cudaGraphLaunch/hipGraphLaunch) have no replayed kernels in "
           "the trace: the profiler did not record the graph's kernels, so their GPU time is "
           "missing from every table and finding (profile with the graph's kernels captured, or "
           "with graphs disabled, to see it)");
    }

    step("computing the GPU timeline");
    const std::string timeline_csv = gpu_timeline_csv_of(model_, tree);
    add(report_dir + "gpu_timeline.csv", timeline_csv);

    ctx_.platform = options_.arch.platform;
    ctx_.arch_spec = options_.arch.spec;
    ctx_.trace_path = recorded_path(options_.trace_path);
    ctx_.output_dir = recorded_path(options_.output_dir);
    ctx_.gpu_utilization = gpu_utilization_from_csv(timeline_csv);

    step("summarizing memcpy, communication and overlap");
    MultiKernelOptions mk_options;
    mk_options.integer_times = gpu_times_are_integers(model_);
    const Json mk_data = build_multi_kernel_data(model_, mk_options);
    add("category_data/multi_kernel_data.json", multi_kernel_data_text(mk_data));

    const auto arch = perf::parse_arch_json(loupe::dump_python_json(options_.arch.spec, 0));
    const perf::Arch* arch_ptr = arch ? &*arch : nullptr;
    std::optional<TraceComparison> comparison;
    if (comparative()) {
      step("aligning the two traces' call trees (TraceDiff)");
      comparison = TraceComparison::compare({model_, tree_}, *trace2_);
      if (const std::size_t skipped = comparison->skipped_disambiguations(); skipped > 0) {
        note("TraceDiff skipped the re-matching of " + std::to_string(skipped) +
             " op name(s) repeated too often in one child list (docs/trace-diff.md §7): they "
             "keep the edit-distance matches, so some LCAs may differ from TraceLens's");
      }
    }
    std::shared_ptr<const CsvTable> unified;
    // The host ops the unified summary is built from; the standalone fusion candidates' sibling
    // sequences read the same list.
    std::vector<unified::CollectedEvent> collected;
    if (!tree.gpu_only()) {
      collected = unified::collect_unified_perf_events(model_, tree);
      unified = add_perf_report(model_, tree, collected, report_dir, arch_ptr,
                                comparison ? &*comparison : nullptr);
    }
    std::optional<std::string> diff_stats;
    Json trace2_utilization;
    Json trace2_by_category;
    if (comparison) {
      diff_stats = comparison->diff_stats_csv();
      if (diff_stats) add(report_dir + "diff_stats.csv", *diff_stats);
      step("trace 2: computing the GPU timeline");
      const std::string timeline2_csv = gpu_timeline_csv_of(trace2_->model, trace2_->tree);
      add("perf_report_trace2_csvs/gpu_timeline.csv", timeline2_csv);
      trace2_utilization = gpu_utilization_from_csv(timeline2_csv);
      // Trace 2 is judged against its own platform's peaks when it has one (README.md).
      std::optional<perf::Arch> arch2;
      if (options_.arch2) {
        arch2 = perf::parse_arch_json(loupe::dump_python_json(options_.arch2->spec, 0));
      }
      const std::shared_ptr<const CsvTable> unified2 =
          add_perf_report(trace2_->model, trace2_->tree,
                          unified::collect_unified_perf_events(trace2_->model, trace2_->tree),
                          "perf_report_trace2_csvs/", arch2 ? &*arch2 : arch_ptr, nullptr);
      trace2_by_category = analysis_dir::trace2_ops_summary_by_category(*unified2);
    }

    std::size_t fusion_count = 0;
    if (tree.gpu_only()) {
      note(
          "GPU-only trace (no CPU ops): no perf report tables, compute categories or fusion "
          "candidates; the GPU timeline and the multi-kernel data are complete");
    } else {
      step("extracting kernel fusion candidates");
      FusionCandidatesResult fusion;
      if (!comparative()) {
        fusion = fusion_candidates_standalone(model_, tree, unified.get(), collected);
      } else if (comparison->identical_traces()) {
        fusion.json = "[]";
        fusion.error = "the two traces run the same ops and kernels in the same call trees";
      } else if (diff_stats) {
        fusion = fusion_candidates_comparative(model_, tree, parse_csv(*diff_stats));
      } else {
        fusion.json = "[]";
        fusion.error = "TraceDiff found no kernel that differs between the two traces";
      }
      if (fusion.failed) {
        note("fusion candidate extraction failed: " + fusion.error);
      } else if (comparative() && !fusion.error.empty()) {
        note("no comparative fusion candidates: " + fusion.error);
      }
      fusion_count = fusion.candidate_count;
      add("category_data/fusion_candidates.json", fusion.json);
    }

    Json categories = Json::array();
    if (unified) {
      step("splitting operations into categories");
      add_compute_categories(*unified, categories);
    }

    add_cpu_idle(categories);
    if (has_multi_kernel_events(mk_data)) add_multi_kernel(categories);
    if (fusion_count > 0)
      categories.push_back(analysis_dir::kernel_fusion_entry(ctx_, fusion_count));
    if (!options_.vendor_selectors.empty()) {
      add_vendor_categories(unified.get(), categories);
    }

    // TraceLens's placeholder (all "Cannot be inferred") in compat mode only; in default mode the
    // run report writes the inferred file (docs/report.md), so each mode has one writer for it.
    if (options_.compat_tracelens) {
      add_json("metadata/model_info.json", analysis_dir::model_info_document());
    }
    if (comparison) add_json("metadata/trace2_gpu_utilization.json", trace2_utilization);
    Json manifest = Json::object();
    manifest["platform"] = ctx_.platform;
    manifest["trace_path"] = ctx_.trace_path;
    manifest["output_dir"] = ctx_.output_dir;
    manifest["comparison_scope"] = comparative() ? "comparative" : "standalone";
    if (comparative() && options_.arch2) manifest["trace2_platform"] = options_.arch2->platform;
    manifest["gpu_utilization"] = ctx_.gpu_utilization;
    manifest["categories"] = std::move(categories);
    manifest["time_metric_note"] =
        "Use gpu_kernel_time_ms for bottleneck prioritization. cpu_duration_ms includes "
        "sync/launch overhead.";
    if (comparison) {
      manifest["trace2_gpu_utilization"] = std::move(trace2_utilization);
      manifest["trace2_ops_summary_by_category"] = std::move(trace2_by_category);
    }
    add_json(layout::kManifest, manifest);
    return std::move(out_);
  }

 private:
  bool comparative() const { return trace2_ != nullptr; }

  std::string gpu_timeline_csv_of(const trace::TraceModel& model,
                                  const trace::EventTree& tree) const {
    trace::GpuTimelineOptions timeline_options;
    timeline_options.time_mode =
        options_.compat_tracelens ? trace::TimeMode::kTraceLensCompat : trace::TimeMode::kExact;
    timeline_options.include_unlinked = tree.gpu_only();
    const auto timeline = trace::compute_gpu_timeline(model, tree, timeline_options);
    if (!timeline) {
      throw PrepareError(
          std::string(&model == &model_ ? "the trace" : "the second trace") +
          " has no GPU event (kernel, gpu_memcpy or gpu_memset) linked to the host; there is "
          "nothing to analyze");
    }
    return trace::gpu_timeline_csv(*timeline);
  }

  // The perf report of one trace into `dir`: ops summaries, unified_perf_summary (returned,
  // parsed) and the per-family sheets.
  std::shared_ptr<const CsvTable> add_perf_report(
      const trace::TraceModel& model, const trace::EventTree& tree,
      std::span<const unified::CollectedEvent> collected, const std::string& dir,
      const perf::Arch* arch, const TraceComparison* comparison) {
    const std::string prefix = &model == &model_ ? "" : "trace 2: ";
    // The per-family sheets read the model, the tree and the platform only (with their own
    // caches): built on a second thread while the launchers and the unified summary are
    // computed (docs/performance.md, "Big traces"). If this function throws, the future's
    // destructor waits for them.
    auto sheets = std::async(
        std::launch::async, [&model, &tree, arch] { return build_perf_sheets(model, tree, arch); });
    step(prefix + "summarizing kernel launchers");
    // Once for the ops tables and the unified summary.
    const std::vector<KernelLauncher> launchers = kernel_launchers(model, tree);
    const OpsTables ops = build_ops_tables(model, tree, launchers);
    if (!ops.ops_summary_by_category_csv.empty()) {
      add(dir + "ops_summary_by_category.csv", ops.ops_summary_by_category_csv);
    }
    add(dir + "ops_summary.csv", ops.ops_summary_csv);
    add(dir + "ops_unique_args.csv", ops.ops_unique_args_csv);

    step(prefix + "costing operations with the perf models");
    std::string unified_csv =
        unified_perf_summary_csv(model, tree, arch, comparison, launchers, collected,
                                 &model == &model_ ? &out_.op_groups : nullptr,
                                 /*loupe_models=*/!options_.compat_tracelens);
    // Parsed once: the categories read it here, and the model takes the same table.
    auto unified = std::make_shared<const CsvTable>(parse_csv(unified_csv));
    add(dir + "unified_perf_summary.csv", std::move(unified_csv), unified);
    for (auto& sheet : sheets.get()) {
      add(dir + sheet.file_name, std::move(sheet.csv));
    }
    if (auto collectives = coll_analysis_csv(model)) {
      step(prefix + "summarizing collectives");
      add(dir + "coll_analysis.csv", std::move(*collectives));
    }
    return unified;
  }

  void step(std::string_view what) {
    if (options_.progress) options_.progress(what);
  }
  void note(std::string text) { out_.notes.push_back(std::move(text)); }
  void add(std::string relative_path, std::string bytes,
           std::shared_ptr<const CsvTable> table = nullptr) {
    out_.files.push_back({std::move(relative_path), std::move(bytes), std::move(table)});
  }
  void add_json(std::string relative_path, const Json& doc) {
    add(std::move(relative_path), loupe::dump_python_json(doc, 2));
  }

  void add_compute_categories(const CsvTable& unified, Json& categories) {
    for (auto& category : analysis_dir::split_categories(unified)) {
      const std::string csv_rel = "category_data/" + category.name + "_ops.csv";
      const std::string meta_rel = "metadata/" + category.name + "_metadata.json";
      add(csv_rel, category.csv_text);
      Json meta = analysis_dir::metadata_base(ctx_, category.display_name, category.name);
      meta["trace_loading_policy"] = "DO_NOT_LOAD_TRACE_use_precomputed_tree_data";
      Json breakdown = category.time_breakdown;
      breakdown["note"] =
          "Use gpu_kernel_time_ms for bottleneck prioritization. sync_time_ms indicates "
          "host-device sync overhead.";
      meta["time_breakdown"] = std::move(breakdown);
      add_json(meta_rel, meta);

      Json entry = Json::object();
      entry["name"] = category.name;
      entry["display_name"] = category.display_name;
      entry["skill"] = analysis_dir::category_skill(category.name);
      entry["tier"] = "compute_kernel";
      entry["ops_count"] = category.ops_count;
      entry["csv_file"] = ctx_.output_dir + "/" + csv_rel;
      entry["metadata_file"] = ctx_.output_dir + "/" + meta_rel;
      for (const auto& [key, value] : category.time_breakdown.as_object()) entry[key] = value;
      categories.push_back(std::move(entry));
    }
  }

  // Vendor categories beside the TraceLens ones (vendor_category_split.hpp).
  void add_vendor_categories(const CsvTable* unified, const Json& categories) {
    step("selecting vendor categories");
    for (const auto& sel : options_.vendor_selectors) {
      bool taken = analysis_dir::category_skill(sel.category) != "generic-op-analyzer";
      for (const auto& entry : categories.as_array()) {
        const Json* name = entry.find("name");
        taken =
            taken || (name != nullptr && name->is_string() && name->as_string() == sel.category);
      }
      for (const char* reserved : {"other", "cpu_idle", "multi_kernel", "kernel_fusion"}) {
        taken = taken || sel.category == reserved;
      }
      if (taken) {
        throw PrepareError("plugin '" + sel.plugin + "' (" + sel.plugin_path.string() +
                           "), selector " + std::to_string(sel.index) + ": vendor category '" +
                           sel.category +
                           "' is also a TraceLens category; a vendor category needs a name of "
                           "its own");
      }
    }
    if (unified == nullptr) {
      note("vendor categories: the trace has no host ops (GPU-only), so no op rows to select");
    }
    const CsvTable empty;
    std::vector<trace::Uid> gpu_ops;
    for (trace::Uid uid = 0; uid < model_.event_count(); ++uid) {
      if (trace::is_gpu_category(model_.event(uid).category)) gpu_ops.push_back(uid);
    }
    const auto exports = analysis_dir::split_vendor_categories(
        unified != nullptr ? *unified : empty, out_.op_groups, gpu_ops,
        [this](trace::Uid uid) {
          return analysis_dir::GpuOpView{model_.name(uid), model_.dur_us(uid)};
        },
        options_.vendor_selectors);
    for (const auto& category : exports) {
      add("category_data/" + category.name + "_ops.csv", category.csv_text);
      if (category.total.trace_kernels > category.total.kernels) {
        note("vendor category '" + category.name + "' of plugin '" + category.plugin +
             "': " + std::to_string(category.total.trace_kernels - category.total.kernels) +
             " of the " + std::to_string(category.total.trace_kernels) +
             " GPU ops its kernel patterns match are in no op row of the perf summary (no host "
             "op launched them, or the summary leaves their op out), so " +
             category.name +
             "_ops.csv does not hold them (loupe_run.json vendor_categories: trace_kernels)");
      }
      for (const auto& [sel, match] : category.selectors) {
        if (match.ops > 0) continue;
        note("vendor category '" + category.name + "' of plugin '" + category.plugin + "' (" +
             category.plugin_path + "): selector " + std::to_string(sel->index) +
             (sel->kernel.empty() ? "" : " kernel_pattern '" + sel->kernel.text() + "'") +
             (sel->op.empty() ? "" : " op_pattern '" + sel->op.text() + "'") +
             " matches nothing in the trace");
      }
    }
    add_json(kVendorCategories, analysis_dir::vendor_categories_json(exports));
  }

  void add_cpu_idle(Json& categories) {
    add_json("metadata/cpu_idle_metadata.json",
             analysis_dir::metadata_base(ctx_, "CPU/Idle Analysis", "cpu_idle"));
    add("category_data/cpu_idle_ops.csv", "\n");  // pandas' empty DataFrame
    auto& list = categories.as_array();
    list.insert(list.begin(), analysis_dir::cpu_idle_entry(ctx_));
  }

  void add_multi_kernel(Json& categories) {
    Json meta = analysis_dir::metadata_base(ctx_, "Multi-Kernel Issues", "multi_kernel");
    meta["tier"] = "system";
    // Default mode: host<->device copies are judged against the host link (docs/deviations.md, M9).
    if (!options_.compat_tracelens) {
      if (const Json* link = ctx_.arch_spec.find("host_link_gbps");
          link != nullptr && link->is_number()) {
        meta["peak_host_link_gbps"] = *link;
      }
    }
    add_json("metadata/multi_kernel_metadata.json", meta);
    categories.push_back(analysis_dir::multi_kernel_entry(ctx_));
  }

  const trace::TraceModel& model_;
  const trace::EventTree& tree_;
  const PrepareOptions& options_;
  const TraceSide* trace2_;  // comparative scope; null when standalone
  DocumentContext ctx_;
  PreparedDirectory out_;
};

}  // namespace

trace::TreeOptions prepare_tree_options() {
  trace::TreeOptions options;
  options.add_python_func = true;
  options.time_mode = trace::TimeMode::kTraceLensCompat;
  // TraceLens's perf report annotates vLLM's attention ops with their step (the attention
  // model reads the step's token counts from it).
  options.annotate_op_prefixes = {"vllm::unified_attention_with_output"};
  // Default mode (docs/deviations.md, "Serving-engine ops"): every attention op whose model
  // reads the step's token counts gets its step, as TraceLens's inference report does.
  options.serving_annotate_op_prefixes = {"aiter::mha_varlen_fwd",
                                          "pseudo_mla_decode_fwd",
                                          "pseudo_mla_prefill_fwd",
                                          "vllm::gdn_attention_core",
                                          "aiter::linear_attention_with_output_base",
                                          "aiter::fmha_v3_varlen_fwd",
                                          "sglang_profiler::tilelang_kernel_tilelang_sparse_fwd",
                                          "sglang_profiler::attention_paged_attention_ragged",
                                          "aiter::mha_batch_prefill",
                                          "aiter::pa_decode_gluon"};
  return options;
}

PreparedDirectory prepare_analysis_directory(const trace::TraceModel& model,
                                             const trace::EventTree& tree,
                                             const PrepareOptions& options) {
  return Pipeline(model, tree, options, nullptr).run();
}

PreparedDirectory prepare_comparative_directory(TraceSide trace1, TraceSide trace2,
                                                const PrepareOptions& options) {
  return Pipeline(trace1.model, trace1.tree, options, &trace2).run();
}

void add_memory_timeline_csv(PreparedDirectory& prepared, bool comparative, std::string csv) {
  const std::string dir = layout::trace1_report_dir(comparative);
  const auto timeline = std::find_if(
      prepared.files.begin(), prepared.files.end(),
      [&](const PreparedFile& f) { return f.relative_path == dir + "gpu_timeline.csv"; });
  if (timeline == prepared.files.end()) return;
  prepared.files.insert(std::next(timeline),
                        PreparedFile{dir + "memory_timeline.csv", std::move(csv), nullptr});
}

void write_prepared_directory(const PreparedDirectory& prepared,
                              const std::filesystem::path& output_dir) {
  std::vector<std::pair<std::filesystem::path, std::string_view>> files;
  files.reserve(prepared.files.size());
  for (const auto& file : prepared.files) {
    files.emplace_back(output_dir / file.relative_path, file.bytes);
  }
  write_files_atomically(files);  // the manifest is last, so it appears last
}

}  // namespace loupe::core::prepare
