// `loupe what-if TRACE [--scale SELECTOR=FACTOR ...] [--json]`: how long each step of a traced
// run would take if some GPU ops took another time, from the run's dependency model
// (docs/what-if.md).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>
#include <spdlog/spdlog.h>

#include "cli_common.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/whatif/run_graph.hpp"
#include "loupe/core/whatif/scale_selector.hpp"
#include "loupe/core/whatif/simulate.hpp"
#include "loupe/python_format.hpp"

namespace loupe::cli {

namespace {

namespace fs = std::filesystem;
namespace tr = core::trace;
namespace wi = core::whatif;

constexpr wi::PathKind kKinds[] = {wi::PathKind::kGpuCompute, wi::PathKind::kCommunication,
                                   wi::PathKind::kMemcpy,     wi::PathKind::kHost,
                                   wi::PathKind::kSync,       wi::PathKind::kGpuQueue};

double ms(std::int64_t ns) { return static_cast<double>(ns) / 1e6; }

using loupe::py::fixed;

std::string pad(std::string s, std::size_t width, bool left = false) {
  if (s.size() >= width) return s;
  return left ? s + std::string(width - s.size(), ' ') : std::string(width - s.size(), ' ') + s;
}

std::string percent(std::int64_t part, std::int64_t whole) {
  return whole > 0 ? fixed(100.0 * static_cast<double>(part) / static_cast<double>(whole), 2) + "%"
                   : "-";
}

struct Run {
  std::string trace;
  const wi::RunGraph* graph = nullptr;
  std::vector<wi::ScaleSelector> selectors;
  std::vector<std::size_t> matched;
  std::int64_t scaled_measured_ns = 0;  // measured GPU time of the scaled ops
  std::int64_t scaled_target_ns = 0;    // their time at the given factors
  wi::Prediction measured;              // the replay without a change
  wi::Prediction predicted;             // with the selectors applied
};

std::string render_text(const Run& r) {
  const wi::RunGraph& g = *r.graph;
  std::string out = "loupe what-if: " + core::escape_for_terminal(r.trace) + "\n";
  out += "Steps: " + std::to_string(g.steps().size()) + " (" +
         std::string(wi::step_source_name(g.step_source())) + "); " +
         std::to_string(g.ops().size()) + " GPU ops on " + std::to_string(g.stream_count()) +
         " stream(s), " + std::to_string(g.stats().blocking_calls) + " blocking host call(s), " +
         std::to_string(g.stats().event_waits) + " cross-stream event wait(s)\n";
  if (r.selectors.empty()) {
    out += "Scaled: nothing (identity: the replay of the measured run)\n";
  }
  for (std::size_t k = 0; k < r.selectors.size(); ++k) {
    out += "Scaled: " + core::escape_for_terminal(r.selectors[k].text) + " x" +
           fixed(r.selectors[k].factor, 3) + " (" + std::to_string(r.matched[k]) + " GPU ops)\n";
  }
  if (!r.selectors.empty()) {
    out += "GPU time of the scaled ops: " + fixed(ms(r.scaled_measured_ns), 3) + " ms -> " +
           fixed(ms(r.scaled_target_ns), 3) + " ms\n";
  }
  out += "\n" + pad("step", 28, true) + pad("measured ms", 14) + pad("predicted ms", 14) +
         pad("gain ms", 12) + pad("gain", 9) + "\n";
  const auto row = [&](const std::string& name, std::int64_t measured, std::int64_t base,
                       std::int64_t predicted) {
    std::string shown = core::escape_for_terminal(name);
    if (shown.size() > 27) {
      std::size_t cut = 24;  // on a UTF-8 character boundary
      while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;
      shown = shown.substr(0, cut) + "...";
    }
    out += pad(shown, 28, true) + pad(fixed(ms(measured), 3), 14) +
           pad(fixed(ms(predicted), 3), 14) + pad(fixed(ms(base - predicted), 3), 12) +
           pad(percent(base - predicted, base), 9) + "\n";
  };
  for (std::size_t i = 0; i < g.steps().size(); ++i) {
    row(g.steps()[i].name, r.predicted.steps[i].measured_ns, r.measured.steps[i].predicted_ns,
        r.predicted.steps[i].predicted_ns);
  }
  row("total (end to end)", r.predicted.measured_total_ns, r.measured.predicted_total_ns,
      r.predicted.predicted_total_ns);
  out += "\nCritical path" + std::string(r.selectors.empty() ? "" : " (measured -> predicted)") +
         ":\n";
  for (const wi::PathKind kind : kKinds) {
    const std::int64_t m = r.measured.path[kind];
    const std::int64_t p = r.predicted.path[kind];
    std::string line = "  " + pad(std::string(wi::path_kind_name(kind)), 30, true) +
                       pad(fixed(ms(m), 3) + " ms", 14) +
                       pad(percent(m, r.measured.path.total()), 9);
    if (!r.selectors.empty()) {
      line +=
          "  ->" + pad(fixed(ms(p), 3) + " ms", 14) + pad(percent(p, r.predicted.path.total()), 9);
    }
    out += line + "\n";
  }
  out += "\nUnresolved: " + fixed(100.0 * g.unresolved_share(), 2) + "% of the GPU ops' time (" +
         std::to_string(g.stats().unlinked_ops) + " op(s) without a launch, " +
         std::to_string(g.stats().overlapping_ops) + " overlapping their stream's previous op" +
         (g.stats().cyclic_nodes > 0
              ? ", " + std::to_string(g.stats().cyclic_nodes) +
                    " host call(s) or op(s) whose times contradict their dependencies"
              : std::string()) +
         ")";
  if (!r.selectors.empty()) {
    out += "; of the scaled ops' time: " + fixed(100.0 * r.predicted.unresolved_share, 2) + "%" +
           (r.predicted.heuristic ? " (heuristic answer)" : "");
  }
  out += "\n";
  return out;
}

void write_path(rapidjson::PrettyWriter<rapidjson::StringBuffer>& w,
                const wi::PathComposition& path) {
  w.StartObject();
  for (const wi::PathKind kind : kKinds) {
    w.Key(std::string(wi::path_kind_name(kind)).c_str());
    w.Double(ms(path[kind]));
  }
  w.EndObject();
}

std::string render_json(const Run& r) {
  const wi::RunGraph& g = *r.graph;
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  w.Key("trace");
  w.String(core::replace_invalid_utf8(r.trace).c_str());
  w.Key("step_source");
  w.String(std::string(wi::step_source_name(g.step_source())).c_str());
  w.Key("gpu_ops");
  w.Uint64(g.ops().size());
  w.Key("scales");
  w.StartArray();
  for (std::size_t k = 0; k < r.selectors.size(); ++k) {
    w.StartObject();
    w.Key("selector");
    w.String(core::replace_invalid_utf8(r.selectors[k].text).c_str());
    w.Key("factor");
    w.Double(r.selectors[k].factor);
    w.Key("matched_ops");
    w.Uint64(r.matched[k]);
    w.EndObject();
  }
  w.EndArray();
  w.Key("scaled_ops_ms");
  w.StartObject();
  w.Key("measured");
  w.Double(ms(r.scaled_measured_ns));
  w.Key("target");
  w.Double(ms(r.scaled_target_ns));
  w.EndObject();
  w.Key("steps");
  w.StartArray();
  for (std::size_t i = 0; i < g.steps().size(); ++i) {
    const auto& s = r.predicted.steps[i];
    w.StartObject();
    w.Key("name");
    w.String(core::replace_invalid_utf8(g.steps()[i].name).c_str());
    w.Key("measured_ms");
    w.Double(ms(s.measured_ns));
    w.Key("predicted_ms");
    w.Double(ms(s.predicted_ns));
    w.Key("gain_ms");
    w.Double(ms(r.measured.steps[i].predicted_ns - s.predicted_ns));
    w.Key("critical_path_ms");
    write_path(w, s.path);
    w.EndObject();
  }
  w.EndArray();
  w.Key("total");
  w.StartObject();
  w.Key("measured_ms");
  w.Double(ms(r.predicted.measured_total_ns));
  w.Key("predicted_ms");
  w.Double(ms(r.predicted.predicted_total_ns));
  w.Key("gain_ms");
  w.Double(ms(r.measured.predicted_total_ns - r.predicted.predicted_total_ns));
  w.EndObject();
  w.Key("critical_path_ms");
  w.StartObject();
  w.Key("measured");
  write_path(w, r.measured.path);
  w.Key("predicted");
  write_path(w, r.predicted.path);
  w.EndObject();
  w.Key("model");
  w.StartObject();
  w.Key("streams");
  w.Uint64(g.stream_count());
  w.Key("blocking_calls");
  w.Uint64(g.stats().blocking_calls);
  w.Key("event_waits");
  w.Uint64(g.stats().event_waits);
  w.Key("ops_without_launch");
  w.Uint64(g.stats().unlinked_ops);
  w.Key("overlapping_ops");
  w.Uint64(g.stats().overlapping_ops);
  w.Key("contradicting_nodes");
  w.Uint64(g.stats().cyclic_nodes);
  w.EndObject();
  w.Key("unresolved_share");
  w.Double(g.unresolved_share());
  w.Key("scaled_unresolved_share");
  w.Double(r.predicted.unresolved_share);
  w.Key("heuristic");
  w.Bool(r.predicted.heuristic);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

// finding:ID selectors: the GPU ops the finding owns, from --findings (a findings.json of a run of
// the same trace). Prints the reason and returns false when one cannot be resolved.
bool fill_finding_selectors(const po::variables_map& vm,
                            std::vector<wi::ScaleSelector>& selectors) {
  const bool any = std::any_of(selectors.begin(), selectors.end(),
                               [](const auto& s) { return s.kind == wi::SelectorKind::kFinding; });
  if (!any) return true;
  if (vm.count("findings") == 0) {
    std::cerr << "loupe what-if: finding: selectors need --findings OUT/findings.json (a run of "
                 "`loupe analyze --trace` on this trace)\n";
    return false;
  }
  const fs::path file = vm["findings"].as<std::string>();
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  rapidjson::Document doc;
  if (!in.good() && !in.eof()) {
    std::cerr << "loupe what-if: --findings " << file.string() << ": cannot be read\n";
    return false;
  }
  doc.Parse(text.c_str(), text.size());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("findings") ||
      !doc["findings"].IsArray()) {
    std::cerr << "loupe what-if: --findings " << file.string()
              << ": not a findings.json written by loupe analyze\n";
    return false;
  }
  for (auto& s : selectors) {
    if (s.kind != wi::SelectorKind::kFinding) continue;
    const rapidjson::Value* found = nullptr;
    for (const auto& f : doc["findings"].GetArray()) {
      if (f.IsObject() && f.HasMember("id") && f["id"].IsString() &&
          s.pattern == f["id"].GetString()) {
        found = &f;
      }
    }
    if (found == nullptr) {
      std::cerr << "loupe what-if: --scale " << core::escape_for_terminal(s.text)
                << ": no finding with that id in " << file.string() << "\n";
      return false;
    }
    const auto owns = found->FindMember("owns");
    if (owns == found->MemberEnd() || !owns->value.IsObject() ||
        !owns->value.HasMember("kernel_uids") || !owns->value["kernel_uids"].IsArray()) {
      std::cerr << "loupe what-if: --scale " << core::escape_for_terminal(s.text)
                << ": the finding owns no GPU ops (idle time or a run-level finding)\n";
      return false;
    }
    for (const auto& u : owns->value["kernel_uids"].GetArray()) {
      if (u.IsUint()) s.uids.push_back(u.GetUint());
    }
    std::sort(s.uids.begin(), s.uids.end());
  }
  return true;
}

}  // namespace

int run_what_if(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe what-if TRACE [--scale SELECTOR=FACTOR ...] [--json]\n\n"
      "Predicts how long each step of a traced run would take if some GPU ops took FACTOR times\n"
      "their measured duration. The run's dependencies are rebuilt from the trace: the order of\n"
      "each GPU stream, the host call that launched each op, cross-stream event waits, blocking\n"
      "host calls (synchronize, synchronous copies) and the host threads, whose work keeps its\n"
      "measured durations and gaps. Steps are the ProfilerStep#N annotations, else the serving\n"
      "engine's step labels, else the whole trace. Without --scale the measured run is replayed\n"
      "(identity) and its critical path shown. See docs/what-if.md for the model and its "
      "limits.\n\n"
      "Selectors (an op named by several --scale takes the last one's factor):\n"
      "  category:NAME  perf-model category of the op that launched the kernel (gemm, sdpa_fwd,\n"
      "                 elementwise, reduce, norm_fwd, ...; case-insensitive)\n"
      "  op:REGEX       name of that op (nearest cpu_op above the launch), whole-name match,\n"
      "                 e.g. 'op:aten::(mm|addmm)'\n"
      "  kernel:REGEX   the kernel's name, matched anywhere, case-insensitive, e.g. 'kernel:gemm'\n"
      "  finding:ID     the GPU ops a finding owns in a `loupe analyze` run of this trace\n"
      "                 (--findings OUT/findings.json, its `owns.kernel_uids`)\n"
      "FACTOR is a finite number above 0 (0.5: twice as fast).\n\n"
      "Exit codes: 0 success (a selector that names no op is a warning), 2 usage error (unknown\n"
      "selector form, bad regex, bad factor) or a trace that cannot be read.\n\n"
      "Options");
  visible.add_options()("help,h", "show this help")(
      "scale", po::value<std::vector<std::string>>()->composing(), "SELECTOR=FACTOR, repeatable")(
      "json", "print the answer as JSON")(
      "findings", po::value<std::string>(),
      "findings.json of a `loupe analyze` run of the same trace, for finding:ID selectors");
  po::variables_map vm;
  if (const auto stop = parse_trace_command(args, visible, vm, "what-if")) return *stop;
  // Every selector is checked before the trace is read.
  Run run;
  if (vm.count("scale") > 0) {
    for (const std::string& text : vm["scale"].as<std::vector<std::string>>()) {
      auto parsed = wi::parse_scale(text);
      if (const auto* why = std::get_if<std::string>(&parsed)) {
        std::cerr << "loupe what-if: --scale " << core::escape_for_terminal(*why) << "\n";
        return kExitUsage;
      }
      run.selectors.push_back(std::move(std::get<wi::ScaleSelector>(parsed)));
    }
  }
  if (!fill_finding_selectors(vm, run.selectors)) return kExitUsage;
  const fs::path path = vm["trace"].as<std::string>();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    std::cerr << "loupe what-if: " << path.string() << ": "
              << (fs::exists(path, ec) ? "not a regular file" : "no such file") << "\n";
    return kExitUsage;
  }
  const auto file_size = fs::file_size(path, ec);
  if (ec) {
    std::cerr << "loupe what-if: cannot read " << path.string() << ": " << ec.message() << "\n";
    return kExitUsage;
  }

  std::optional<wi::RunGraph> graph;
  {
    tr::LoadOptions load_options;
    load_options.progress = trace_load_progress("what-if", file_size, vm.count("quiet") > 0);
    const auto start = std::chrono::steady_clock::now();
    tr::LoadResult loaded;
    try {
      loaded = tr::load_trace(path, load_options);
    } catch (const std::exception& e) {
      std::cerr << "loupe what-if: " << e.what() << "\n";
      return kExitUsage;
    }
    if (loaded.error) {
      std::cerr << "loupe what-if: " << path.string() << ": " << loaded.error->describe() << " ("
                << loaded.model.event_count() << " events read before it)\n";
      return kExitUsage;
    }
    spdlog::info("loaded {} events in {:.2f} s", loaded.model.event_count(), seconds_since(start));
    const tr::EventTree tree = tr::EventTree::build(loaded.model);
    const auto graph_start = std::chrono::steady_clock::now();
    graph = wi::RunGraph::build(loaded.model, tree);
    spdlog::info("dependency model: {} GPU ops, {} host calls, built in {:.2f} s",
                 graph->ops().size(), graph->host_nodes().size(), seconds_since(graph_start));
  }  // the trace model and the tree are freed here; the graph owns what it needs
  if (graph->ops().empty()) {
    std::cerr << "loupe what-if: " << path.string() << ": no GPU op in the trace\n";
    return kExitUsage;
  }
  run.trace = path.string();
  run.graph = &*graph;
  const wi::ScaledOps scaled = wi::resolve_scales(*graph, run.selectors);
  run.matched = scaled.matched;
  for (const wi::KernelTarget& t : scaled.targets) {
    run.scaled_measured_ns += graph->ops()[*graph->op_index(t.uid)].dur;
    run.scaled_target_ns += t.duration_ns;
  }
  for (std::size_t k = 0; k < run.selectors.size(); ++k) {
    if (scaled.matched[k] == 0) {
      std::cerr << "loupe what-if: warning: --scale "
                << core::escape_for_terminal(run.selectors[k].text) << " names no GPU op of "
                << path.string() << "\n";
    }
  }
  const auto replay_start = std::chrono::steady_clock::now();
  run.measured = wi::simulate(*graph, {});
  run.predicted = wi::simulate(*graph, scaled.targets);
  spdlog::info("two replays in {:.3f} s", seconds_since(replay_start));
  std::cout << (vm.count("json") > 0 ? render_json(run) : render_text(run));
  return kExitOk;
}

}  // namespace loupe::cli
