#include "findings_builder.hpp"

#include <algorithm>
#include <cmath>

namespace loupe::cpu_idle {

namespace fd = loupe::findings;

namespace {

constexpr const char* kTitle = "CPU/Idle Time Analysis Findings";
constexpr const char* kMetrics = "`cpu_idle_metrics.json`";
constexpr size_t kNameWidth = 60;

// A name from the trace as one table cell or inside inline code: the SDK's cell rules, no
// backticks, shortened.
std::string cell_name(std::string_view name) {
  std::string out = fd::table_cell(name, kNameWidth);
  std::replace(out.begin(), out.end(), '`', '\'');
  return out.empty() ? std::string("(none)") : out;
}

// Where a host stack points in the user's code: the innermost Python source frame outside
// PyTorch (file name without its directory) and the innermost op, e.g. "cuda_graph_runner.py(276):
// populate_from_forward_batch > aten::copy_"; the last `depth` entries when there is no frame.
std::string short_stack(std::string_view stack, size_t depth = 3) {
  if (stack.empty()) return "no host stack";
  std::vector<std::string_view> parts;
  size_t at = 0;
  while (true) {
    const size_t next = stack.find(" > ", at);
    parts.push_back(stack.substr(at, next == std::string::npos ? std::string::npos : next - at));
    if (next == std::string::npos) break;
    at = next + 3;
  }
  // Prefer the innermost frame outside PyTorch itself (torch/...), else the innermost frame.
  std::optional<size_t> pick;
  for (size_t i = parts.size(); i-- > 0;) {
    if (parts[i].find(".py(") == std::string::npos) continue;
    if (!pick) pick = i;
    if (!parts[i].starts_with("torch/") && parts[i].find("/torch/") == std::string::npos) {
      pick = i;
      break;
    }
  }
  if (pick) {
    const size_t i = *pick;
    std::string frame(parts[i]);
    if (const size_t slash = frame.rfind('/', frame.find(".py(")); slash != std::string::npos) {
      frame.erase(0, slash + 1);
    }
    return cell_name(frame) + (i + 1 < parts.size() ? " > " + cell_name(parts.back()) : "");
  }
  std::string out;
  for (size_t i = parts.size() > depth ? parts.size() - depth : 0; i < parts.size(); ++i) {
    if (!out.empty()) out += " > ";
    out += cell_name(parts[i]);
  }
  return out;
}

std::string pct(double part, double whole) {
  return whole > 0 ? fixed(part / whole * 100, 2) : "0.00";
}

std::string num(const Json& v, int digits) { return fixed(number(v), digits); }

fd::Section overview(const FindingsInput& in) {
  const Utilization& u = *in.utilization;
  fd::Section s{"Overview", {}};
  s.blocks.push_back(fd::paragraph("**Status**: SUCCESS\n**Idle Time**: " + num(u.idle_percent, 2) +
                                   "% (" + num(u.idle_time_ms, 3) + " ms out of " +
                                   num(u.total_time_ms, 3) + " ms total)"));
  std::string flag =
      "**Idle Flagged**: " + std::string(u.idle_flagged ? "true" : "false") +
      " (threshold: more than 15% of the GPU timeline idle; source: " + u.timeline_file + ").";
  s.blocks.push_back(fd::paragraph(flag));
  s.blocks.push_back(fd::paragraph(in.compat ? "**Metrics mode**: TraceLens-compatible "
                                               "(`--compat tracelens`)."
                                             : "**Metrics mode**: corrected (Loupe default, see "
                                               "docs/deviations.md)."));
  if (in.scope == Scope::Comparative) {
    s.blocks.push_back(fd::paragraph("**Scope**: comparative; the idle analysis covers Trace 1."));
  }
  return s;
}

fd::Section utilization_section(const Utilization& u) {
  fd::Table t{{"Metric", "Value"}, {}};
  t.rows.push_back({"Computation", num(u.computation_percent, 2) + "%"});
  t.rows.push_back({"Idle", num(u.idle_percent, 2) + "%"});
  t.rows.push_back({"Communication", num(u.communication_percent, 2) + "%"});
  t.rows.push_back({"MemCpy", num(u.memcpy_percent, 2) + "%"});
  return {"Utilization Breakdown", {fd::table(std::move(t))}};
}

std::string other_text(const Breakdown& b) {
  std::string out;
  for (int r = 0; r < kOtherReasonCount; ++r) {
    if (b.other_ns[r] <= 0) continue;
    if (!out.empty()) out += ", ";
    std::string name = to_string(static_cast<OtherReason>(r));
    std::replace(name.begin(), name.end(), '_', ' ');
    out += name + " " + fixed_ms(b.other_ns[r]) + " ms";
  }
  return out.empty() ? std::string("none") : out;
}

// The GPU work the profiler recorded without its host launches, outside the analysis window.
std::string outside_text(const RecordingWindow& w) {
  std::string out;
  const auto side = [&](const OutsideWindow& o, const char* where) {
    if (o.ops <= 0) return;
    out += (out.empty() ? "" : "; ") + std::to_string(o.ops) + " GPU ops (" + fixed_ms(o.busy_ns) +
           " ms busy) ran " + where;
    if (o.correlation_evidence > 0) {
      out += ", " + std::to_string(o.correlation_evidence) +
             (std::string(where).starts_with("before")
                  ? " of them launched before the first recorded launch"
                  : " of them launched after the last recorded launch");
    }
  };
  side(w.before, "before the window");
  side(w.after, "after it");
  if (out.empty()) return out;
  return " Outside the window, and outside what the trace can explain (never counted as a "
         "saving): " +
         out + ".";
}

fd::Section breakdown_section(const Breakdown& b, const RecordingWindow* window) {
  fd::Section s{"Idle Breakdown", {}};
  const double idle = ms(b.idle_ns);
  const std::string scope = window != nullptr ? "GPU ops of the analysis window, the " +
                                                    fixed_ms(window->end_ns - window->start_ns) +
                                                    " ms gpu_timeline.csv measures, per device"
                                              : "all GPU ops, per device";
  s.blocks.push_back(
      fd::paragraph("From the raw trace (" + scope + "): " + std::to_string(b.gaps.size()) +
                    " idle gaps, " + fixed_ms(b.idle_ns) + " ms idle in a " + fixed_ms(b.span_ns) +
                    " ms GPU span (" + pct(idle, ms(b.span_ns)) + "%). Other: " + other_text(b) +
                    "." + (window != nullptr ? outside_text(*window) : std::string())));
  fd::Table t{{"Cause", "Idle (ms)", "Share of idle"}, {}};
  t.rows.push_back(
      {"Launch-bound", fixed_ms(b.launch_bound_ns), pct(ms(b.launch_bound_ns), idle) + "%"});
  t.rows.push_back({"Synchronization", fixed_ms(b.sync_ns), pct(ms(b.sync_ns), idle) + "%"});
  t.rows.push_back(
      {"Other / host work", fixed_ms(b.other_total_ns()), pct(ms(b.other_total_ns()), idle) + "%"});
  s.blocks.push_back(fd::table(std::move(t)));
  return s;
}

std::int64_t origin_ns(const Breakdown& b) {
  std::int64_t o = 0;
  bool first = true;
  for (const auto& op : b.ops) {
    if (first || op.start_ns < o) o = op.start_ns;
    first = false;
  }
  return o;
}

std::string mechanism_words(const Gap& g) {
  std::string out = gap_label(g);
  std::replace(out.begin(), out.end(), '_', ' ');
  return out;
}

// What the host was doing in the gap, by the gap's dominant mechanism.
std::string host_side(const Gap& g) {
  const auto m = dominant_mechanism(g);
  if (m == Mechanism::Synchronization && g.blocking != nullptr) {
    return cell_name(g.blocking->name) + " in " + short_stack(g.blocking->op_stack);
  }
  if (m == Mechanism::DataLoading) return "DataLoader iteration";
  if (g.after->launch) {
    const std::string launch = "launch " + cell_name(g.after->launch->name);
    return g.after->op_stack.empty() ? launch + " (no host op above it)"
                                     : launch + " from " + short_stack(g.after->op_stack);
  }
  return "(no host launch)";
}

fd::Section top_gaps_section(const Breakdown& b) {
  fd::Table t{{"Rank", "Device", "Start (ms)", "Duration (ms)", "Cause", "GPU op before",
               "GPU op after (launch delay)", "Host side"},
              {}};
  const std::int64_t origin = origin_ns(b);
  int n = 0;
  for (const Gap* g : b.top_gaps(5)) {
    std::string after = cell_name(g->after->name);
    if (g->after->launch) {
      after += " (" + fixed_ms(g->after->launch->ts_ns - g->start_ns) + " ms)";
    }
    t.rows.push_back({std::to_string(++n), cell_name(g->device), fixed_ms(g->start_ns - origin),
                      fixed_ms(g->duration_ns()), mechanism_words(*g), cell_name(g->before->name),
                      after, host_side(*g)});
  }
  fd::Section s{"Top Idle Gaps", {}};
  if (n == 0) {
    s.blocks.push_back(fd::paragraph("The trace has no idle gap between GPU ops."));
  } else {
    s.blocks.push_back(
        fd::paragraph("Start is measured from the first GPU op; launch delay is "
                      "how long after the GPU went idle the host began the launch "
                      "of the op that ends the gap (negative: launched earlier)."));
    s.blocks.push_back(fd::table(std::move(t)));
  }
  return s;
}

// ---- Cards ------------------------------------------------------------------------------
const Gap* largest_gap_of(const Breakdown& b, Mechanism m) {
  const Gap* best = nullptr;
  std::int64_t best_ns = 0;
  for (const auto& g : b.gaps) {
    const std::int64_t ns = mechanism_ns(g, m);
    if (ns > best_ns) {
      best_ns = ns;
      best = &g;
    }
  }
  return best;
}

std::string title(Mechanism m) {
  switch (m) {
    case Mechanism::LaunchBound:
      return "Kernel launch overhead leaves the GPU idle between kernels";
    case Mechanism::Synchronization:
      return "Blocking host synchronization leaves the GPU idle";
    case Mechanism::DataLoading:
      return "Data loading between steps leaves the GPU idle";
    case Mechanism::HostWork:
      return "Host work before the next launch leaves the GPU idle";
    case Mechanism::QueuedWait:
      return "Queued GPU work waits on a device-side dependency";
  }
  return {};
}

std::string share_text(const Candidate& c, const Breakdown& b) {
  return fixed(c.high_ms, 3) + " ms (" + pct(c.high_ms, ms(b.idle_ns)) + "% of the " +
         fixed_ms(b.idle_ns) + " ms GPU idle, " + pct(c.high_ms, ms(b.span_ns)) +
         "% of the GPU span)";
}

std::string sync_action(const SyncSource& s) {
  const std::string where =
      "`" + cell_name(s.name) + "`" +
      (s.op_name.empty() ? std::string() : " under `" + cell_name(s.op_name) + "`");
  if (s.name == "aten::_local_scalar_dense" || s.name == "aten::item" ||
      s.op_name == "aten::_local_scalar_dense" || s.op_name == "aten::item") {
    return "Remove the `tensor.item()` (or Python `if`/`bool()` on a GPU tensor) found at " +
           where + " from the step: keep the value on the device, or read it once every few steps.";
  }
  if (s.name.find("Synchronize") != std::string::npos) {
    return "Remove the explicit synchronize (" + where +
           ", e.g. `torch.cuda.synchronize()` or `stream.synchronize()`) from the step loop, or "
           "wait on an event for only the stream whose result is needed.";
  }
  return "Replace the synchronous copy " + where +
         " with a non-blocking one (`tensor.to(device, non_blocking=True)` between pinned host "
         "memory and the device) and consume its result after an event, so the host keeps "
         "launching while the copy runs.";
}

fd::Recommendation card(const Candidate& c, const Breakdown& b, const QueueEvidence* q,
                        bool compat) {
  fd::Recommendation r;
  r.title = title(c.mechanism);
  const Gap* top = largest_gap_of(b, c.mechanism);
  const std::string largest = top != nullptr
                                  ? " The largest such gap lasts " + fixed_ms(top->duration_ns()) +
                                        " ms, between `" + cell_name(top->before->name) +
                                        "` and `" + cell_name(top->after->name) + "`."
                                  : "";
  switch (c.mechanism) {
    case Mechanism::Synchronization: {
      const SyncSource* s = b.sync_sources.empty() ? nullptr : &b.sync_sources.front();
      r.insight = "The host thread that launches the next GPU work sat in blocking calls for " +
                  share_text(c, b) + " while the GPU ran nothing, across " +
                  std::to_string(c.gaps) + " gaps." + largest;
      if (s != nullptr) {
        r.insight += " Most of it is `" + cell_name(s->name) + "` called from " +
                     short_stack(s->op_stack) + " (" + fixed_ms(s->idle_ns) + " ms in " +
                     std::to_string(s->gaps) + " gaps).";
        r.action = sync_action(*s);
      } else {
        r.action = "Remove blocking host reads and synchronize calls from the step loop.";
      }
      break;
    }
    case Mechanism::LaunchBound: {
      r.insight =
          "In " + std::to_string(c.gaps) +
          " gaps the GPU waited for the host to issue the next launch: " + share_text(c, b) + "; " +
          std::to_string(b.eager_launches) + " GPU ops were launched one by one" +
          (b.graph_launches > 0
               ? ", " + std::to_string(b.graph_launches) + " came from graph replays."
               : std::string(".")) +
          largest;
      if (q != nullptr && q->evaluated) {
        r.insight += " The launch queue (ops launched but not started) was empty for " +
                     fixed(q->empty_percent(), 1) + "% of the GPU span (mean depth " +
                     fixed(q->mean_depth, 2) + "): the GPU ran out of launched work.";
      }
      if (b.graph_launches > 0) {
        r.action =
            "The step already replays a GPU graph; capture the ops still launched "
            "eagerly around it (the launches named in Top Idle Gaps) into the graph, or "
            "fuse them, so the host issues one replay instead of many launches.";
      } else {
        r.action =
            "Capture the step in a GPU graph: `torch.compile(model, mode=\"reduce-overhead\")` "
            "or `torch.cuda.CUDAGraph` capture and replay (in a serving engine, keep its "
            "graph capture on), so one replay replaces the per-kernel launches.";
      }
      break;
    }
    case Mechanism::DataLoading:
      r.insight = "The GPU sat idle while the host iterated the DataLoader: " + share_text(c, b) +
                  " across " + std::to_string(c.gaps) + " gaps." + largest;
      r.action =
          "Load batches in worker processes (`DataLoader(num_workers=N, pin_memory=True, "
          "prefetch_factor=2)`) and copy them with `non_blocking=True`, so the next batch "
          "is ready when the step ends.";
      break;
    case Mechanism::HostWork:
      r.insight =
          "The host spent more than 1 ms before launching the next GPU op in " +
          std::to_string(c.gaps) + " gaps: " + share_text(c, b) + "." + largest +
          (top != nullptr && top->after->launch
               ? " The op that ends it is launched from " + short_stack(top->after->op_stack) + "."
               : std::string());
      r.action =
          "Profile the host code that runs before that launch and take it off the step's "
          "critical path: precompute it, batch it, or run it on another thread while the "
          "GPU works.";
      break;
    case Mechanism::QueuedWait:
      r.insight = "GPU ops that were already launched did not start for " + share_text(c, b) +
                  " across " + std::to_string(c.gaps) +
                  " gaps: the device waited on a dependency (an event or stream wait) rather than "
                  "on the host." +
                  largest;
      if (top != nullptr && top->stream_wait != nullptr && top->after->launch) {
        r.insight +=
            " Its next op was launched " +
            fixed(static_cast<double>(top->after->launch->ts_ns - top->stream_wait->start_ns) /
                      1000.0,
                  1) +
            " us after a `" + cell_name(top->stream_wait->name) + "` on the same host thread" +
            (top->stream_wait->op_stack.empty()
                 ? std::string()
                 : " (" + short_stack(top->stream_wait->op_stack) + ")") +
            ": that event is the likely dependency.";
      }
      if (q != nullptr && q->evaluated) {
        r.insight += " Ops were queued during " + fixed(q->idle_queued_percent(), 1) +
                     "% of the idle time (mean queue depth " + fixed(q->mean_depth, 2) +
                     " over the GPU span): the queue was fed, so this is not launch overhead.";
      }
      r.action =
          "Find the event or stream wait that holds the queued ops (the op after the gap "
          "in Top Idle Gaps) and record that event earlier or move the dependent work to "
          "a stream without the wait.";
      break;
  }
  if (!compat) {
    r.impact = fd::ImpactScores{
        c.impact_low, c.impact_mid, c.impact_high,
        "impact_score: " + dump_python_json(c.impact_mid, -1) + "; estimated saving " +
            fixed(c.mid_ms, 3) + " ms (low " + fixed(c.low_ms, 3) + " ms, high " +
            fixed(c.high_ms, 3) + " ms: the measured idle time of this mechanism, an upper bound)"};
    // The high end is measured idle time; the ledger reads the saving in ms, not through the
    // percentage of the span (docs/findings-schema.md, "Claims").
    r.evidence = fd::Evidence::Measured;
    r.saving_ms = fd::SavingMs{c.low_ms, c.mid_ms, c.high_ms};
  }
  return r;
}

std::string identification(Mechanism m) {
  const std::string src = std::string(" (source: ") + kMetrics +
                          " → `idle_breakdown.mechanisms[]`, `idle_breakdown.top_gaps[]`; the raw "
                          "trace's GPU timeline and host calls).";
  switch (m) {
    case Mechanism::LaunchBound:
      return "Idle gaps that end with an op the host launched after the GPU went idle" + src;
    case Mechanism::Synchronization:
      return "Idle time while the launching host thread is in a blocking call" + src;
    case Mechanism::DataLoading:
      return "Idle time while the host iterates the DataLoader" + src;
    case Mechanism::HostWork:
      return "Idle gaps where the host needs more than 1 ms to reach the next launch" + src;
    case Mechanism::QueuedWait:
      return "Idle time after the next op was launched but before it started" + src;
  }
  return {};
}

std::string reasoning(Mechanism m) {
  switch (m) {
    case Mechanism::LaunchBound:
      return "Each eager kernel costs host time for dispatch and launch; when kernels are "
             "shorter than that, the GPU finishes before the next one is issued.";
    case Mechanism::Synchronization:
      return "A blocking call makes the host wait for the device, so no new work is queued "
             "until it returns and the GPU drains.";
    case Mechanism::DataLoading:
      return "Batches are prepared on the launching thread between steps, so the GPU has no "
             "work while the next batch is loaded.";
    case Mechanism::HostWork:
      return "The host runs code that issues no GPU work before the next launch, so the GPU "
             "queue runs empty.";
    case Mechanism::QueuedWait:
      return "The work was queued in time but held by a dependency on the device, so the "
             "idle time is not host overhead.";
  }
  return {};
}

std::string resolution(Mechanism m) {
  switch (m) {
    case Mechanism::LaunchBound:
      return "A graph replay issues all captured kernels with one host call, so the gaps between "
             "them shrink to the device's own scheduling time.";
    case Mechanism::Synchronization:
      return "Without the blocking call the host keeps launching ahead of the GPU, so the next "
             "kernels are queued when the previous ones finish.";
    case Mechanism::DataLoading:
      return "Worker processes prepare batches while the GPU computes, and pinned non-blocking "
             "copies overlap the upload with compute.";
    case Mechanism::HostWork:
      return "Host work that overlaps GPU execution no longer delays the next launch.";
    case Mechanism::QueuedWait:
      return "When the dependency is met earlier, the queued ops start as soon as the GPU is "
             "free.";
  }
  return {};
}

fd::Table detail_table(const Candidate& c, const Breakdown& b) {
  fd::Table t{{"Metric", "Value"}, {}};
  t.rows.push_back({"Idle time", fixed(c.high_ms, 3) + " ms"});
  t.rows.push_back({"Share of GPU idle", pct(c.high_ms, ms(b.idle_ns)) + "%"});
  t.rows.push_back({"Gaps it dominates", std::to_string(c.gaps)});
  t.rows.push_back(
      {"Estimated saving (low / mid / high)",
       fixed(c.low_ms, 3) + " / " + fixed(c.mid_ms, 3) + " / " + fixed(c.high_ms, 3) + " ms"});
  if (const Gap* g = largest_gap_of(b, c.mechanism)) {
    t.rows.push_back(
        {"Largest gap", fixed_ms(g->duration_ns()) + " ms before " + cell_name(g->after->name)});
    t.rows.push_back({"Host side of that gap", host_side(*g)});
  }
  if (c.mechanism == Mechanism::Synchronization) {
    for (size_t i = 0; i < b.sync_sources.size() && i < 3; ++i) {
      const auto& s = b.sync_sources[i];
      t.rows.push_back({"Blocking call " + cell_name(s.name),
                        fixed_ms(s.idle_ns) + " ms in " + std::to_string(s.gaps) + " gaps (" +
                            cell_name(s.op_name) + ")"});
    }
  }
  return t;
}

std::vector<const Candidate*> reported(const FindingsInput& in) {
  std::vector<const Candidate*> out;
  if (in.breakdown == nullptr || in.candidates == nullptr) return out;
  for (const auto& c : *in.candidates) {
    if (c.reported) out.push_back(&c);
  }
  return out;
}

void add_card(fd::Document& doc, fd::Recommendation rec, fd::Detail detail) {
  detail.rank = static_cast<int>(doc.details.size()) + 1;
  detail.title = rec.title;
  doc.recommendations.push_back(std::move(rec));
  doc.details.push_back(std::move(detail));
}

// Compat cards without a measured breakdown: TraceLens's sub-agent reports from the percentage.
void compat_percentage_card(fd::Document& doc, const Utilization& u, bool has_trace) {
  fd::Recommendation r;
  fd::Detail d;
  const std::string idle = num(u.idle_percent, 2) + "% (" + num(u.idle_time_ms, 3) + " ms of " +
                           num(u.total_time_ms, 3) + " ms)";
  if (!u.idle_flagged) {
    r.title = "GPU idle time is within the acceptable range";
    r.insight = "The GPU is idle for " + idle + ", at or below the 15% threshold.";
    r.action = "No action needed for idle time; focus on the compute categories.";
    d.reasoning = "Idle time at or below 15% of the GPU timeline is not a bottleneck.";
    d.resolution = "No change is recommended.";
  } else {
    r.title = "GPU idle for " + num(u.idle_percent, 2) + "% of the timeline";
    r.insight = "The GPU is idle for " + idle + ", above the 15% threshold.";
    r.action = has_trace ? "No single idle mechanism reaches 1% of the GPU span in the raw trace; "
                           "inspect the Top Idle Gaps."
                         : "Rerun with `loupe analyze --trace <trace>` to split the idle time "
                           "into launch overhead, synchronization and host work before changing "
                           "the code.";
    d.reasoning =
        "The GPU timeline shows idle time, but without the raw trace it cannot be "
        "tied to launch overhead, synchronization or host work.";
    d.resolution = "The raw-trace breakdown names the mechanism and the op that ends each gap.";
  }
  d.identification = std::string("GPU idle share from gpu_timeline.csv (source: ") + kMetrics +
                     " → `gpu_utilization.idle_time_percent`, `idle_flagged`).";
  fd::Table t{{"Metric", "Value"}, {}};
  t.rows.push_back({"Idle time", num(u.idle_time_ms, 3) + " ms"});
  t.rows.push_back({"Idle share", num(u.idle_percent, 2) + "%"});
  t.rows.push_back({"Idle flagged", u.idle_flagged ? "true" : "false"});
  d.data.push_back(fd::table(std::move(t)));
  add_card(doc, std::move(r), std::move(d));
}

}  // namespace

fd::Document build_findings(const FindingsInput& in) {
  const Utilization& u = *in.utilization;
  fd::Document doc = fd::new_findings(fd::Style::System, "cpu_idle", in.scope, kTitle);
  doc.sections.push_back(overview(in));
  doc.sections.push_back(utilization_section(u));
  if (in.breakdown != nullptr) {
    doc.sections.push_back(breakdown_section(*in.breakdown, in.window));
    doc.sections.push_back(top_gaps_section(*in.breakdown));
  } else {
    doc.sections.push_back(
        {"Idle Breakdown",
         {fd::paragraph("Not available: this run was analyzed from an analysis directory. "
                        "Splitting the idle time into launch overhead, synchronization and host "
                        "work needs the raw trace: rerun with `loupe analyze --trace <trace>`. "
                        "Reported here is what TraceLens reports, the idle share of the GPU "
                        "timeline.")}});
  }

  const auto cards = reported(in);
  const bool use_cards = !cards.empty() && (!in.compat || u.idle_flagged);
  if (use_cards) {
    for (const Candidate* c : cards) {
      fd::Detail d;
      d.identification = identification(c->mechanism);
      d.data.push_back(fd::table(detail_table(*c, *in.breakdown)));
      d.reasoning = reasoning(c->mechanism);
      d.resolution = resolution(c->mechanism);
      if (!in.compat) {  // the card's numbers, not "not quantifiable" under a savings table
        d.estimate =
            fd::DetailEstimate{c->impact_low,
                               c->impact_high,
                               {"Low end: " + fixed(c->low_ms, 3) + " ms, impact_score " +
                                    dump_python_json(c->impact_low, -1),
                                "High end: " + fixed(c->high_ms, 3) +
                                    " ms, the measured idle time of this mechanism, impact_score " +
                                    dump_python_json(c->impact_high, -1)}};
      }
      add_card(doc, card(*c, *in.breakdown, in.queue, in.compat), std::move(d));
    }
  } else if (in.compat) {
    // TraceLens's validator rejects a system file without cards.
    compat_percentage_card(doc, u, in.breakdown != nullptr);
  } else {
    std::string text;
    if (in.breakdown == nullptr) {
      text = "The GPU is idle for " + num(u.idle_percent, 2) + "% of the timeline (" +
             num(u.idle_time_ms, 3) +
             " ms). No recommendation is made without the raw-trace "
             "breakdown (`--trace`), which names the mechanism.";
    } else {
      text = "No idle mechanism reaches " + fixed(kCardPercentOfSpan, 0) + "% of the GPU span (" +
             fixed_ms(in.breakdown->idle_ns) + " ms idle of " + fixed_ms(in.breakdown->span_ns) +
             " ms). No recommendation is made.";
    }
    doc.sections.push_back({"Outcome", {fd::paragraph(text)}});
  }
  if (in.variation != nullptr && in.breakdown != nullptr) {
    auto [rec, detail] = step_variation_card(*in.variation, in.breakdown->span_ns);
    add_card(doc, std::move(rec), std::move(detail));
  }
  return doc;
}

fd::Document error_findings(const std::string& message, Scope scope) {
  fd::Document doc = fd::error_document(fd::Style::System, "cpu_idle", scope, kTitle, message);
  doc.sections.push_back(
      {"Error Details",
       {fd::paragraph("Status: ERROR"),
        fd::paragraph("The CPU/idle analysis stopped at its input check, so no recommendation "
                      "was derived from this run.")}});
  return doc;
}

}  // namespace loupe::cpu_idle
