#include "loupe/core/report/run_report.hpp"

#include <spdlog/spdlog.h>

#include "loupe/core/report/html_report.hpp"
#include "loupe/core/report/model_info.hpp"
#include "loupe/core/report/perf_plot.hpp"
#include "loupe/core/util/atomic_file.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/layout.hpp"

namespace loupe::core {

namespace {

const Json* find_member(const Json& object, std::string_view key) { return object.find(key); }

std::optional<double> positive(const Json* v) {
  if (v == nullptr || !v->is_number() || !(v->as_double() > 0)) return std::nullopt;
  return v->as_double();
}

// The platform's peaks: the first category metadata file that carries them (what the
// analyzers used), else the bundled arch spec of the manifest's platform.
PlatformPeaks platform_peaks(const Model& model, const std::string& platform) {
  PlatformPeaks peaks;
  peaks.name = platform;
  auto from_tflops = [&](const Json& tflops) {
    peaks.bf16_tflops = positive(find_member(tflops, "matrix_bf16"));
    peaks.fp8_tflops = positive(find_member(tflops, "matrix_fp8"));
    peaks.fp4_tflops = positive(find_member(tflops, "matrix_fp4"));
  };
  for (const auto& name : model.document_names()) {
    if (name.rfind("metadata/", 0) != 0 || name.find("_metadata.json") == std::string::npos) {
      continue;
    }
    const auto* doc = model.document(name);
    if (doc == nullptr || !doc->IsObject()) continue;
    const Json meta = to_owned_json(*doc);
    const Json* tflops = find_member(meta, "max_achievable_tflops");
    if (tflops == nullptr || !tflops->is_object()) continue;
    peaks.hbm_tb_per_s = positive(find_member(meta, "peak_hbm_bw_tbs"));
    from_tflops(*tflops);
    return peaks;
  }
  if (const auto* doc = model.document("arch/" + platform + ".json");
      doc != nullptr && doc->IsObject()) {
    const Json arch = to_owned_json(*doc);
    if (const auto gbps = positive(find_member(arch, "mem_bw_gbps")))
      peaks.hbm_tb_per_s = *gbps / 1000;
    if (const Json* tflops = find_member(arch, "max_achievable_tflops");
        tflops != nullptr && tflops->is_object()) {
      from_tflops(*tflops);
    }
  }
  return peaks;
}

void add_high_variance(const Json& metrics, const std::string& category,
                       std::vector<HighVarianceOperation>& out) {
  const Json* ops = find_member(metrics, "operations");
  if (ops == nullptr || !ops->is_array()) return;
  for (const auto& op : ops->as_array()) {
    const Json* flag = find_member(op, "high_variance");
    if (flag == nullptr || !flag->is_bool() || !flag->as_bool()) continue;
    HighVarianceOperation h;
    if (const Json* n = find_member(op, "name"); n != nullptr && n->is_string())
      h.operation = n->as_string();
    h.category = category;
    if (const Json* c = find_member(op, "cov"); c != nullptr && c->is_number())
      h.cov = c->as_double();
    if (const Json* t = find_member(op, "time_ms"); t != nullptr && t->is_number()) {
      h.time_ms = t->as_double();
    }
    out.push_back(std::move(h));
  }
}

// The model as the trace shows it. A model_info.json the input already has is kept in
// --compat tracelens (TraceLens's file stays byte-identical), and also when there are no tables
// to decide from (rather than replacing it by "Cannot be inferred").
ModelInfo run_model_info(const Model& model, const AnalyzeReport& report, Compat compat,
                         bool& from_input) {
  from_input = false;
  const ModelEvidence evidence = gather_model_evidence(model, report.scope == Scope::Comparative);
  if (evidence.ops.empty() || compat == Compat::TraceLens) {
    if (const auto* doc = model.document(kModelInfoFile); doc != nullptr && doc->IsObject()) {
      const Json existing = to_owned_json(*doc);
      ModelInfo info;
      auto field = [&](const char* key, std::string& into) {
        if (const Json* v = find_member(existing, key); v != nullptr && v->is_string()) {
          into = v->as_string();
        }
      };
      field("model", info.model);
      field("architecture", info.architecture);
      field("scale", info.scale);
      field("precision", info.precision);
      info.evidence.push_back("taken from the input's " + std::string(kModelInfoFile));
      from_input = true;
      return info;
    }
  }
  return identify_model(evidence);
}

// Writes one report file atomically and records it; false (logged) when it cannot be written.
bool write_report_file(const std::filesystem::path& output_dir, const char* name,
                       const std::string& text, AnalyzeReport& report) {
  try {
    write_file_atomically(output_dir / name, text);
    report.report_files.emplace_back(name);
    return true;
  } catch (const std::exception& e) {
    spdlog::error("{} could not be written: {}", name, e.what());
    return false;
  }
}

}  // namespace

AnalysisReportInput gather_report_input(const Model& model, const AnalyzeReport& report,
                                        const ModelInfo& model_info) {
  AnalysisReportInput in;
  in.scope = report.scope;
  if (const auto* manifest = model.document(layout::kManifest))
    in.manifest = to_owned_json(*manifest);
  in.priority_data = report.priority_data;
  for (const auto& plugin : report.plugins) {
    for (const auto& c : plugin.categories) {
      ReportCategory rc;
      rc.category = c.category;
      rc.tier = plugin.plugin->tier;
      rc.status = c.status;
      rc.message = c.message;
      rc.findings_path = c.findings_path;
      rc.contributing = c.role == CategoryRole::Contributing;
      rc.plugin = plugin.plugin->name;
      rc.plugin_version = plugin.plugin->version;
      if (c.findings_document) rc.style = findings::to_string(c.findings_document->style);
      if (c.status == findings::Status::Ok && !c.findings_path.empty()) {
        rc.markdown = c.findings_markdown;
      }
      if (c.status == findings::Status::Ok && !c.metrics_path.empty() && !rc.contributing) {
        if (const auto* metrics = model.document(c.metrics_path)) {
          add_high_variance(to_owned_json(*metrics), c.category, in.high_variance);
        }
      }
      in.categories.push_back(std::move(rc));
    }
  }
  in.unhandled = report.unhandled;
  in.model = model_info;
  std::string platform;
  if (const Json* p = find_member(in.manifest, "platform"); p != nullptr && p->is_string()) {
    platform = p->as_string();
  } else if (const std::string* prop = model.property("platform")) {
    platform = *prop;
  }
  in.platform = platform_peaks(model, platform);
  return in;
}

void write_run_report(const Model& model, AnalyzeReport& report,
                      const std::filesystem::path& output_dir, Compat compat) {
  if (model.document(layout::kManifest) == nullptr) return;  // nothing to report against
  bool from_input = false;
  const ModelInfo info = run_model_info(model, report, compat, from_input);
  if (!from_input) {
    write_report_file(output_dir, kModelInfoFile,
                      dump_python_json(model_info_json(info), 2, false) + "\n", report);
  }
  AnalysisReportInput input = gather_report_input(model, report, info);
  if (const Json* serving = report.run_findings.find("serving")) input.serving = *serving;
  if (compat != Compat::TraceLens) input.run_findings = report.findings;
  if (const Json* recording = report.run_findings.find("recording")) input.recording = *recording;
  if (const Json* steps = report.run_findings.find("steps")) input.steps = *steps;
  if (const Json* memory = report.run_findings.find("memory")) input.memory = *memory;
  const std::string title = (info.model == kCannotInfer ? std::string("Workload") : info.model) +
                            " - " + (input.platform.name.empty() ? "GPU" : input.platform.name) +
                            ": GPU time by category";
  const auto segments = perf_breakdown(input.manifest);
  const std::string svg = replace_invalid_utf8(perf_breakdown_svg(segments, title));
  if (!svg.empty() && write_report_file(output_dir, kPerfPlotFile, svg, report)) {
    input.plot_file = kPerfPlotFile;
  }
  if (const std::string png = perf_breakdown_png(segments, title); !png.empty()) {
    write_report_file(output_dir, kPerfPngFile, png, report);
  }
  write_report_file(output_dir, kAnalysisReportFile,
                    replace_invalid_utf8(build_analysis_report(input)), report);
  // The tables the page links to: only those beside it (analyze DIR -o OUT leaves them in DIR).
  std::vector<std::string> csv_files;
  for (const auto& name : model.table_names()) {
    std::error_code ec;
    if (name.size() > 4 && name.compare(name.size() - 4, 4, ".csv") == 0 &&
        name.rfind("trace/", 0) != 0 && std::filesystem::is_regular_file(output_dir / name, ec)) {
      csv_files.push_back(name);
    }
  }
  write_report_file(output_dir, kHtmlReportFile,
                    replace_invalid_utf8(build_html_report(input, report.findings, svg, csv_files)),
                    report);
}

}  // namespace loupe::core
