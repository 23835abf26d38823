// Serving steps and GPU graphs in the run report (serving_report.hpp; docs/report.md, "Serving
// steps and GPU graphs"). Every rule reads the measured numbers of the serving summary only.
#include "loupe/core/report/serving_report.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <utility>

#include "loupe/compute/kernel_family.hpp"
#include "report_text.hpp"

namespace loupe::core {
namespace {

using report_detail::fixed;
using report_detail::kEmDash;
using report_detail::number_at;
using report_detail::text_at;

constexpr double kIdleStepPercent = 30.0;  // a step idle at least this share of its GPU span
constexpr double kIdleStepMinMs = 1.0;     // ... over at least this span
constexpr long long kEagerDecodeLaunches = 20;
constexpr double kOutsidePiecesShare = 0.10;

double num(const Json& o, std::string_view key) { return number_at(o, key).value_or(0.0); }
long long count(const Json& o, std::string_view key) {
  return static_cast<long long>(number_at(o, key).value_or(0.0));
}
const Json& list(const Json& o, std::string_view key) {
  static const Json kEmpty = Json::array();
  const Json* v = o.find(key);
  return v != nullptr && v->is_array() ? *v : kEmpty;
}
std::string ms(double v) { return fixed(v, 3) + " ms"; }
std::string capitalized(std::string s) {
  if (!s.empty() && s[0] >= 'a' && s[0] <= 'z') s[0] = static_cast<char>(s[0] - 'a' + 'A');
  return s;
}
std::string cell(std::string s) {  // a markdown table cell
  std::string out;
  for (const char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out.push_back(c);
  }
  return out;
}
std::string opt_count(const Json& o, std::string_view key) {
  const auto v = number_at(o, key);
  return v ? std::to_string(static_cast<long long>(*v)) : std::string(kEmDash);
}

// Requests / tokens of a step as "prefill / decode" (an em dash where the label has none).
std::string split(const Json& step, const char* prefill, const char* decode) {
  return opt_count(step, prefill) + " / " + opt_count(step, decode);
}

// What the kernel-family table (loupe/compute/kernel_family.hpp) says of an attention kernel:
// " (AITER fused paged attention)"; empty for any other kernel.
std::string attention_family(const std::string& kernel_name) {
  const compute::KernelFamily f = compute::kernel_family(kernel_name);
  if (!f.attention) return {};
  return std::string(" (") + compute::kernel_library_name(f.library) + (f.fused ? " fused" : "") +
         (f.paged ? " paged" : "") + " attention)";
}

// "`a` 1.000 ms, `b` 0.500 ms" for the first n kernels of a list; attention kernels with their
// family.
std::string top_kernels(const Json& kernels, std::size_t n) {
  std::string out;
  std::size_t k = 0;
  for (const auto& kernel : kernels.as_array()) {
    if (k++ == n) break;
    out += std::string(out.empty() ? "" : ", ") + "`" + text_at(kernel, "short_name") + "` " +
           ms(num(kernel, "time_ms")) + attention_family(text_at(kernel, "name"));
  }
  return out.empty() ? std::string(kEmDash) : out;
}

std::string describe_step(const Json& step) {
  std::string d = "`" + text_at(step, "label") + "`";
  std::vector<std::string> parts;
  const auto req = number_at(step, "prefill_requests").value_or(0) +
                   number_at(step, "decode_requests").value_or(0);
  const auto tok =
      number_at(step, "prefill_tokens").value_or(0) + number_at(step, "decode_tokens").value_or(0);
  if (req > 0) parts.push_back(std::to_string(static_cast<long long>(req)) + " requests");
  if (tok > 0) parts.push_back(std::to_string(static_cast<long long>(tok)) + " tokens");
  if (!parts.empty()) {
    d += " (";
    for (std::size_t i = 0; i < parts.size(); ++i) d += (i ? ", " : "") + parts[i];
    d += ")";
  }
  return d;
}

// What to do about a step's launch gaps, keyed to its phase (docs/report.md, "Serving steps
// and GPU graphs"). The engines replay decode-only batches from graphs captured per batch
// size, so the batch-size switches are named for decode steps only, and with the batch size
// only when the label gives one; prefill and mixed batches are not replayed from those graphs;
// a diffusion step is a denoising step, not a decode step.
std::string graph_capture_action(const std::string& engine, const std::string& phase,
                                 const Json& step) {
  if (phase == "prefill" || phase == "mixed") {
    return "Prefill and mixed prefill+decode batches are not replayed from the engine's "
           "decode-batch graphs (at most piecewise around the attention), so graph batch sizes are "
           "not the lever: the idle time is host work between launches, and the cpu_idle analysis "
           "(system_findings/cpu_idle_findings.md) says what held each gap.";
  }
  if (phase == "diffusion") {
    return "Compile the denoiser with `torch.compile(mode=\"reduce-overhead\")`, which captures "
           "each denoising step in a CUDA/HIP graph so its kernels launch as one replay.";
  }
  if (phase != "decode") {
    return "Capture the step's GPU work in a CUDA/HIP graph (the engine's graph-capture option, "
           "or `torch.cuda.CUDAGraph` / `torch.compile(mode=\"reduce-overhead\")`).";
  }
  const auto requests = number_at(step, "decode_requests");
  const bool known = requests && *requests > 0;
  const std::string batch =
      known ? "the batch size (" + std::to_string(static_cast<long long>(*requests)) + ")"
            : std::string("its batch size (the step label does not give it)");
  if (engine == "SGLang") {
    return "SGLang replays a decode batch from a captured CUDA/HIP graph only when graphs are on "
           "(no `--disable-cuda-graph`) and " +
           batch + " is one it captured: " +
           (known ? std::string("raise `--cuda-graph-max-bs` (or list it in `--cuda-graph-bs`) to "
                                "cover it.")
                  : std::string("check `--cuda-graph-max-bs` / `--cuda-graph-bs` against the "
                                "decode batch sizes it runs."));
  }
  if (engine == "vLLM") {
    return "vLLM replays decode batches from captured graphs unless `--enforce-eager` is set and "
           "only for batch sizes it captured: make sure " +
           batch +
           " is within the capture sizes of `compilation_config` (`cudagraph_capture_sizes`).";
  }
  return "Capture the decode step in a CUDA/HIP graph (the engine's graph-capture option, or "
         "`torch.cuda.CUDAGraph` / `torch.compile(mode=\"reduce-overhead\")`).";
}

Json serving_finding(std::string id, std::string rule, std::string title, std::string insight,
                     std::string action) {
  Json f = Json::object();
  f["id"] = std::move(id);
  f["rule"] = std::move(rule);
  f["title"] = std::move(title);
  f["insight"] = std::move(insight);
  f["action"] = std::move(action);
  return f;
}

void step_findings(const Json& step, std::size_t index, Json& out) {
  const std::string engine = text_at(step, "engine");
  const std::string phase = text_at(step, "phase");
  const double busy = num(step, "gpu_busy_ms"), span = num(step, "gpu_span_ms");
  const double idle = num(step, "gpu_idle_ms"), idle_pct = num(step, "gpu_idle_percent");
  const double kernel = num(step, "kernel_time_ms"), graph = num(step, "graph_kernel_time_ms");
  const long long graphs = count(step, "graph_launches"), eager = count(step, "eager_launches");
  const double graph_share = kernel > 0 ? graph / kernel : 0.0;
  const std::string id_base = "serving-step" + std::to_string(index + 1);
  const std::string who = capitalized(phase) + " step " + std::to_string(index + 1);

  if (idle_pct >= kIdleStepPercent && span >= kIdleStepMinMs) {
    std::string insight = describe_step(step) + " kept the GPU busy " + ms(busy) + " of the " +
                          ms(span) + " from its first to its last GPU op: " + ms(idle) + " (" +
                          fixed(idle_pct, 1) + "%) idle. " + fixed(100.0 * graph_share, 1) +
                          "% of its kernel time ran inside " + std::to_string(graphs) +
                          " GPU-graph replay(s).";
    std::string action =
        graph_share >= 0.9
            ? "The step's kernels already replay from a GPU graph, so kernel-launch overhead is "
              "not what idles the GPU: the idle time lies outside the replay. The cpu_idle "
              "analysis (system_findings/cpu_idle_findings.md) says what held each gap."
            : graph_capture_action(engine, phase, step);
    Json f = serving_finding(id_base + "-idle", "idle_step",
                             who + ": GPU idle " + fixed(idle_pct, 1) + "% of its span",
                             std::move(insight), std::move(action));
    f["step"] = text_at(step, "label");
    f["idle_ms"] = idle;
    out.push_back(std::move(f));
  }
  if (phase == "decode" && graphs == 0 && eager >= kEagerDecodeLaunches) {
    Json f = serving_finding(
        id_base + "-eager", "eager_decode",
        who + ": " + std::to_string(eager) + " launches without a GPU graph",
        describe_step(step) + " launched its GPU work with " + std::to_string(eager) +
            " separate runtime calls and no graph replay; " + ms(kernel) + " of kernel time, " +
            ms(busy) + " busy in a " + ms(span) + " span.",
        graph_capture_action(engine, phase, step));
    f["step"] = text_at(step, "label");
    out.push_back(std::move(f));
  }
  const double outside = kernel - graph;
  if (graphs >= 2 && kernel > 0 && outside / kernel >= kOutsidePiecesShare) {
    std::string action;
    if (phase == "decode" && engine == "vLLM") {
      action =
          "vLLM can replay decode-only batches as one full graph instead of pieces: "
          "`compilation_config={\"cudagraph_mode\": \"FULL_AND_PIECEWISE\"}` (or "
          "`FULL_DECODE_ONLY`), where the attention backend supports full graphs.";
    } else if (phase == "diffusion" || engine.empty()) {
      action =
          "If the eager kernels belong to the compiled model, a graph break splits the captured "
          "region (`TORCH_LOGS=graph_breaks` lists them); otherwise they run outside the compiled "
          "part (for a diffusion pipeline, e.g. the text encoder, VAE or scheduler).";
    } else {
      action =
          "This step is a prefill or mixes prefill and decode: engines capture such batches "
          "piecewise, so the ops between the pieces (attention) run eagerly by design; the "
          "attention findings cover their kernels.";
    }
    Json f = serving_finding(
        id_base + "-pieces", "graph_pieces",
        who + ": " + fixed(100.0 * outside / kernel, 1) + "% of kernel time outside " +
            std::to_string(graphs) + " graph pieces",
        describe_step(step) + " replayed " + std::to_string(graphs) + " GPU-graph pieces (" +
            ms(graph) + " of kernel time) and launched " + ms(outside) +
            " of kernels eagerly between them (" + std::to_string(eager) +
            " launch calls); the largest: " + top_kernels(list(step, "eager_kernels"), 3) + ".",
        std::move(action));
    f["step"] = text_at(step, "label");
    out.push_back(std::move(f));
  }
}

}  // namespace

Json serving_report_block(const Json& summary) {
  Json block = summary;
  Json findings = Json::array();
  const Json& steps = list(summary, "steps");
  for (std::size_t i = 0; i < steps.size(); ++i) step_findings(steps.as_array()[i], i, findings);
  if (const Json* g = summary.find("graphs"); g != nullptr && g->is_object()) {
    if (const long long n = count(*g, "unattributed_kernels"); n > 0) {
      std::string names;
      int shown = 0;
      for (const auto& r : list(summary, "graph_replays").as_array()) {
        if (const Json* c = r.find("caller"); c == nullptr || !c->is_null()) continue;
        for (const auto& k : list(r, "kernels").as_array()) {
          if (shown++ >= 5) break;
          names += std::string(names.empty() ? "" : ", ") + "`" + text_at(k, "short_name") + "`";
        }
      }
      Json f = serving_finding(
          "serving-graphs-unattributed", "unattributed_graph_kernels",
          std::to_string(n) + " replayed kernels have no host caller",
          std::to_string(count(*g, "unattributed_launches")) +
              " GPU-graph launch(es) have no cpu_op or Python frame above them in the "
              "trace, so their " +
              std::to_string(n) + " kernels (" + ms(num(*g, "unattributed_kernel_time_ms")) +
              ") cannot be attributed to the code that replayed them: " + names + ".",
          "Profile with Python stacks (`with_stack=True`) to see the caller.");
      f["kernel_time_ms"] = num(*g, "unattributed_kernel_time_ms");
      findings.push_back(std::move(f));
    }
    if (const long long n = count(*g, "launches_without_kernels"); n > 0) {
      findings.push_back(serving_finding(
          "serving-graphs-without-kernels", "graph_launch_without_kernels",
          std::to_string(n) + " graph launches replayed no recorded kernel",
          std::to_string(n) + " cudaGraphLaunch/hipGraphLaunch call(s) have no replayed kernel in "
                              "the trace: their GPU time is missing from every table.",
          "Profile with the graph's kernels captured, or with graphs disabled, to see it."));
    }
  }
  block["findings"] = std::move(findings);
  return block;
}

std::string serving_report_markdown(const Json& block) {
  std::ostringstream out;
  const Json& steps = list(block, "steps");
  const Json& phases = list(block, "phases");
  const Json& replays = list(block, "graph_replays");
  out << "## Serving Steps and GPU Graphs\n\n";
  if (steps.size() > 0) {
    out << "The trace marks " << steps.size() << " serving step" << (steps.size() == 1 ? "" : "s")
        << " (the engine's step labels). GPU busy and idle are measured over the GPU work each "
           "step launched, from its first to its last GPU op.\n\n";
    out << "| Phase | Steps | Requests | Tokens | GPU busy per step | GPU idle |\n";
    out << "|-------|-------|----------|--------|-------------------|----------|\n";
    for (const auto& p : phases.as_array()) {
      out << "| " << text_at(p, "phase") << " | " << count(p, "steps") << " | "
          << opt_count(p, "requests") << " | " << opt_count(p, "tokens") << " | "
          << ms(num(p, "gpu_busy_ms_per_step")) << " | " << ms(num(p, "gpu_idle_ms")) << " ("
          << fixed(num(p, "gpu_idle_percent"), 1) << "%) |\n";
    }
    out << "\n| Step | Engine | Phase | Requests (prefill / decode) | Tokens (prefill / decode) | "
           "GPU busy | GPU span | Idle | Graph replays | Kernel time in graphs |\n";
    out << "|------|--------|-------|------|------|------|------|------|------|------|\n";
    std::size_t shown = 0;
    for (const auto& s : steps.as_array()) {
      if (shown++ == 20) {
        out << "| (" << steps.size() - 20 << " more steps in findings.json) | | | | | | | | | |\n";
        break;
      }
      const double kernel = num(s, "kernel_time_ms");
      out << "| " << shown << ": " << cell("`" + text_at(s, "label") + "`") << " | "
          << text_at(s, "engine") << " | " << text_at(s, "phase") << " | "
          << split(s, "prefill_requests", "decode_requests") << " | "
          << split(s, "prefill_tokens", "decode_tokens") << " | " << ms(num(s, "gpu_busy_ms"))
          << " | " << ms(num(s, "gpu_span_ms")) << " | " << fixed(num(s, "gpu_idle_percent"), 1)
          << "% | " << count(s, "graph_launches") << " | " << ms(num(s, "graph_kernel_time_ms"))
          << " (" << fixed(kernel > 0 ? 100.0 * num(s, "graph_kernel_time_ms") / kernel : 0.0, 1)
          << "%) |\n";
    }
    out << "\n";
  } else {
    out << "The trace has no serving-engine step label, so no per-step or per-phase numbers.\n\n";
  }
  if (replays.size() > 0) {
    const Json* g = block.find("graphs");
    out << "### GPU graph replays\n\n";
    out << replays.size() << " GPU-graph launch" << (replays.size() == 1 ? "" : "es")
        << " replayed " << (g ? ms(num(*g, "kernel_time_ms")) : std::string(kEmDash))
        << " of kernel time. Each launch is attributed to the host op, else the engine's Python "
           "frame, that called it; its kernels are listed under it (full names in "
           "findings.json, `serving.graph_replays`).\n\n";
    // Launches with the same caller, step and kernels are one row.
    struct Group {
      std::string caller, step;
      long long launches = 0, kernels = 0;
      double time_ms = 0.0;
      std::map<std::string, double> by_kernel;
    };
    std::vector<Group> groups;
    std::map<std::string, std::size_t> index;
    for (const auto& r : replays.as_array()) {
      const Json* caller = r.find("caller");
      const Json* step = r.find("step_index");
      Group g1;
      g1.caller = caller && caller->is_string() ? "`" + caller->as_string() + "`"
                                                : std::string("(no caller in the trace)");
      g1.step = step && step->is_number()
                    ? "step " + std::to_string(static_cast<long long>(step->as_double()))
                    : std::string(kEmDash);
      std::string key =
          g1.caller + "\n" + g1.step + "\n" + std::to_string(count(r, "kernel_count"));
      std::vector<std::string> names;
      for (const auto& k : list(r, "kernels").as_array()) names.push_back(text_at(k, "name"));
      std::sort(names.begin(), names.end());
      for (const auto& name : names) key += "\n" + name;
      auto [it, inserted] = index.try_emplace(key, groups.size());
      if (inserted) groups.push_back(std::move(g1));
      Group& g2 = groups[it->second];
      g2.launches += 1;
      g2.kernels = count(r, "kernel_count");
      g2.time_ms += num(r, "kernel_time_ms");
      for (const auto& k : list(r, "kernels").as_array()) {
        g2.by_kernel[text_at(k, "short_name")] += num(k, "time_ms");
      }
    }
    out << "| Caller | Step | Launches | Kernels per launch | Kernel time | Top kernels |\n";
    out << "|--------|------|----------|--------------------|-------------|-------------|\n";
    std::size_t shown = 0;
    for (const auto& g2 : groups) {
      if (shown++ == 20) {
        out << "| (" << groups.size() - 20 << " more rows in findings.json) | | | | | |\n";
        break;
      }
      std::vector<std::pair<std::string, double>> top(g2.by_kernel.begin(), g2.by_kernel.end());
      std::stable_sort(top.begin(), top.end(),
                       [](const auto& x, const auto& y) { return x.second > y.second; });
      std::string names;
      for (std::size_t k = 0; k < top.size() && k < 3; ++k) {
        names +=
            std::string(names.empty() ? "" : ", ") + "`" + top[k].first + "` " + ms(top[k].second);
      }
      out << "| " << cell(g2.caller) << " | " << g2.step << " | " << g2.launches << " | "
          << g2.kernels << " | " << ms(g2.time_ms) << " | " << cell(names) << " |\n";
    }
    out << "\n";
    if (g != nullptr && count(*g, "unattributed_kernels") == 0) {
      out << "Every replayed kernel is attributed to the code that launched its graph.\n\n";
    }
  }
  const Json& findings = list(block, "findings");
  if (findings.size() > 0) {
    out << "### Serving findings\n\n";
    for (const auto& f : findings.as_array()) {
      out << "- **" << text_at(f, "title") << "**: " << text_at(f, "insight")
          << " *Action*: " << text_at(f, "action") << "\n";
    }
    out << "\n";
  }
  return out.str();
}

std::vector<std::string> serving_summary_lines(const Json& block) {
  std::vector<std::string> lines;
  for (const auto& p : list(block, "phases").as_array()) {
    lines.push_back(text_at(p, "phase") + ": " + std::to_string(count(p, "steps")) + " step(s), " +
                    opt_count(p, "requests") + " requests, " + opt_count(p, "tokens") +
                    " tokens, GPU busy " + ms(num(p, "gpu_busy_ms_per_step")) + " per step, idle " +
                    fixed(num(p, "gpu_idle_percent"), 1) + "%");
  }
  if (const Json* g = block.find("graphs"); g != nullptr && count(*g, "launches") > 0) {
    const long long un = count(*g, "unattributed_kernels");
    lines.push_back("GPU graphs: " + std::to_string(count(*g, "launches")) + " launch(es), " +
                    ms(num(*g, "kernel_time_ms")) + " of replayed kernels, " +
                    (un == 0
                         ? std::string("all attributed to their caller")
                         : std::to_string(un) + " kernels (" +
                               ms(num(*g, "unattributed_kernel_time_ms")) + ") without a caller"));
  }
  for (const auto& f : list(block, "findings").as_array()) {
    lines.push_back("finding: " + text_at(f, "title"));
  }
  return lines;
}

}  // namespace loupe::core
