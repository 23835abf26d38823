#include "loupe/core/report/steps_report.hpp"

#include <algorithm>
#include <cstdio>
#include <numeric>

#include "loupe/core/util/text_escape.hpp"
#include "loupe/python_format.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

using report_detail::fixed;
using report_detail::int_or_zero;
using report_detail::member_of;
using report_detail::number_or_zero;
using report_detail::text_at;

const char* source_text(const std::string& source) {
  if (source == "profiler_step") return "ProfilerStep annotations";
  if (source == "serving_label") return "serving-engine step labels";
  return "none";
}

Json row_json(const trace::StepRow& s) {
  Json r = Json::object();
  r["name"] = s.name;
  r["step_ms"] = report_detail::ms_of_ns(s.step_ns());
  r["host_ms"] = report_detail::ms_of_ns(s.host_ns);
  r["gpu_ops"] = static_cast<std::int64_t>(s.gpu_ops);
  r["gpu_span_ms"] = report_detail::ms_of_ns(s.gpu_span_ns);
  r["busy_ms"] = report_detail::ms_of_ns(s.busy_ns);
  r["computation_ms"] = report_detail::ms_of_ns(s.computation_ns);
  r["communication_ms"] = report_detail::ms_of_ns(s.communication_ns);
  r["memcpy_ms"] = report_detail::ms_of_ns(s.memcpy_ns);
  Json idle = Json::object();
  idle["total_ms"] = report_detail::ms_of_ns(s.idle.total());
  idle["host_ms"] = report_detail::ms_of_ns(s.idle.host_ns);
  idle["sync_ms"] = report_detail::ms_of_ns(s.idle.sync_ns);
  idle["queued_ms"] = report_detail::ms_of_ns(s.idle.queued_ns);
  idle["unlinked_ms"] = report_detail::ms_of_ns(s.idle.unlinked_ns);
  r["idle"] = std::move(idle);
  Json queue = Json::object();
  queue["mean"] = py::round_half_even(s.queue_mean, 2);
  queue["max"] = s.queue_max;
  queue["empty_percent"] = s.gpu_span_ns > 0
                               ? py::round_half_even(100.0 * static_cast<double>(s.queue_empty_ns) /
                                                         static_cast<double>(s.gpu_span_ns),
                                                     1)
                               : 0.0;
  r["queue"] = std::move(queue);
  r["warmup"] = s.warmup;
  return r;
}

double mean_of(const std::vector<const trace::StepRow*>& rows,
               std::int64_t (*field)(const trace::StepRow&)) {
  if (rows.empty()) return 0.0;
  double total = 0.0;
  for (const auto* r : rows) total += static_cast<double>(field(*r));
  return py::round_half_even(total / static_cast<double>(rows.size()) / 1e6, 3);
}

Json aggregate_json(const trace::StepTable& t) {
  std::vector<const trace::StepRow*> steady;
  for (const auto& s : t.steps) {
    if (!s.warmup) steady.push_back(&s);
  }
  if (steady.empty()) return nullptr;
  std::vector<std::int64_t> times;
  times.reserve(steady.size());
  for (const auto* s : steady) times.push_back(s->step_ns());
  std::sort(times.begin(), times.end());
  const std::size_t n = times.size();
  const std::int64_t median = n % 2 == 1 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
  Json a = Json::object();
  a["steps"] = static_cast<std::int64_t>(n);
  a["median_step_ms"] = report_detail::ms_of_ns(median);
  a["mean_step_ms"] = mean_of(steady, [](const trace::StepRow& s) { return s.step_ns(); });
  a["min_step_ms"] = report_detail::ms_of_ns(times.front());
  a["max_step_ms"] = report_detail::ms_of_ns(times.back());
  a["mean_host_ms"] = mean_of(steady, [](const trace::StepRow& s) { return s.host_ns; });
  a["mean_busy_ms"] = mean_of(steady, [](const trace::StepRow& s) { return s.busy_ns; });
  a["mean_computation_ms"] =
      mean_of(steady, [](const trace::StepRow& s) { return s.computation_ns; });
  a["mean_communication_ms"] =
      mean_of(steady, [](const trace::StepRow& s) { return s.communication_ns; });
  a["mean_memcpy_ms"] = mean_of(steady, [](const trace::StepRow& s) { return s.memcpy_ns; });
  a["mean_idle_ms"] = mean_of(steady, [](const trace::StepRow& s) { return s.idle.total(); });
  return a;
}

}  // namespace

Json steps_report_block(const trace::StepTable& t) {
  Json block = Json::object();
  block["source"] = trace::to_string(t.source);
  const auto warmup = static_cast<std::int64_t>(
      std::count_if(t.steps.begin(), t.steps.end(), [](const auto& s) { return s.warmup; }));
  block["count"] = static_cast<std::int64_t>(t.steps.size());
  block["warmup_steps"] = warmup;
  block["devices"] = static_cast<std::int64_t>(t.devices);
  block["gpu_ops_outside_steps"] = static_cast<std::int64_t>(t.ops_outside_steps);
  Json table = Json::array();
  for (std::size_t i = 0; i < t.steps.size() && i < kStepsInFindings; ++i) {
    table.push_back(row_json(t.steps[i]));
  }
  block["table"] = std::move(table);
  block["table_omitted"] = static_cast<std::int64_t>(
      t.steps.size() > kStepsInFindings ? t.steps.size() - kStepsInFindings : 0);
  block["aggregate"] = aggregate_json(t);
  if (t.variation) {
    const trace::StepVariation& v = *t.variation;
    Json j = Json::object();
    j["significant"] = v.significant();
    j["steady_steps"] = static_cast<std::int64_t>(v.steady_steps);
    j["median_step_ms"] = report_detail::ms_of_ns(v.median_ns);
    j["spread_ms"] = report_detail::ms_of_ns(v.spread_ns);
    j["threshold_ms"] = report_detail::ms_of_ns(v.threshold_ns);
    Json slow = Json::array();
    for (const std::size_t i : v.slow) slow.push_back(t.steps[i].name);
    j["slow_steps"] = std::move(slow);
    j["excess_ms"] = report_detail::ms_of_ns(v.excess_ns);
    block["variation"] = std::move(j);
  } else {
    block["variation"] = nullptr;
  }
  Json problems = Json::array();
  for (const auto& p : t.problems) problems.push_back(p);
  block["not_used"] = std::move(problems);
  std::string note;
  if (t.source == trace::StepSource::kNone) {
    note =
        "the trace has no ProfilerStep annotation and no serving-engine step label: there is no "
        "per-step table (record with torch.profiler.schedule and prof.step() to get one)";
  } else {
    note = "steps from " + std::string(source_text(trace::to_string(t.source))) +
           "; warm-up steps are excluded from the aggregates";
    if (!t.variation) {
      note += "; step-to-step variation needs at least " +
              std::to_string(trace::kMinStepsForVariation) + " steady steps";
    }
  }
  block["note"] = note;
  return block;
}

Json steps_report_block_from_document(const Json& steps_document) {
  const auto t = trace::step_table_from_json(steps_document);
  return t ? steps_report_block(*t) : Json();
}

namespace {

// The rows the report lists: warm-up and slow steps first, then the others in order.
std::vector<const Json*> listed_rows(const Json& block) {
  std::vector<const Json*> rows;
  const Json& table = member_of(block, "table");
  if (!table.is_array()) return rows;
  std::vector<std::string> slow;
  for (const Json& s : member_of(member_of(block, "variation"), "slow_steps").is_array()
                           ? member_of(member_of(block, "variation"), "slow_steps").as_array()
                           : Json::Array{}) {
    if (s.is_string()) slow.push_back(s.as_string());
  }
  std::vector<const Json*> first, rest;
  for (const Json& r : table.as_array()) {
    const bool marked = (member_of(r, "warmup").is_bool() && member_of(r, "warmup").as_bool()) ||
                        std::find(slow.begin(), slow.end(), text_at(r, "name")) != slow.end();
    (marked ? first : rest).push_back(&r);
  }
  for (const auto* list : {&first, &rest}) {
    for (const Json* r : *list) {
      if (rows.size() < kStepsInReport) rows.push_back(r);
    }
  }
  return rows;
}

std::string queue_cell(const Json& r) {
  const Json& q = member_of(r, "queue");
  return fixed(number_or_zero(q, "mean"), 2) + " / " + std::to_string(int_or_zero(q, "max"));
}

std::string variation_sentence(const Json& block) {
  const Json& v = member_of(block, "variation");
  if (!v.is_object()) return {};
  const auto slow = member_of(v, "slow_steps").is_array() ? member_of(v, "slow_steps").size() : 0;
  if (slow == 0) {
    return "Step time is steady: no steady step exceeds the median (" +
           fixed(number_or_zero(v, "median_step_ms"), 3) + " ms) by more than " +
           fixed(number_or_zero(v, "threshold_ms"), 3) + " ms.";
  }
  return std::to_string(slow) + " of " + std::to_string(int_or_zero(v, "steady_steps")) +
         " steady steps exceed the median (" + fixed(number_or_zero(v, "median_step_ms"), 3) +
         " ms) by more than " + fixed(number_or_zero(v, "threshold_ms"), 3) +
         " ms (3 robust standard deviations, at least 5 % of the median): together " +
         fixed(number_or_zero(v, "excess_ms"), 3) + " ms beyond the median.";
}

}  // namespace

std::string steps_report_markdown(const Json& block) {
  if (!block.is_object()) return {};
  std::string out = "## Steps\n\n";
  if (text_at(block, "source") == "none") {
    out +=
        "The trace has no ProfilerStep annotation and no serving-engine step label: there is "
        "no per-step table.\n\n";
  } else {
    out += std::to_string(int_or_zero(block, "count")) + " steps from " +
           source_text(text_at(block, "source")) + ", " +
           std::to_string(int_or_zero(block, "warmup_steps")) +
           " warm-up (excluded from the aggregates). Idle is the GPU span of the step's work "
           "minus its busy time, by what ended each gap: the host had not launched the next op "
           "yet (host), a synchronize call held it (sync), the op was already queued (queued), "
           "or it has no recorded launch (unlinked). Queue: ops launched but not started, mean "
           "/ max over the step's GPU span.\n\n";
    out +=
        "| Step | Time (ms) | Host (ms) | GPU busy (ms) | Compute (ms) | Comm (ms) | Memcpy (ms) "
        "| Idle host (ms) | Idle sync (ms) | Idle queued (ms) | Idle unlinked (ms) | Queue |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n";
    const auto rows = listed_rows(block);
    for (const Json* r : rows) {
      const Json& idle = member_of(*r, "idle");
      const bool warm = member_of(*r, "warmup").is_bool() && member_of(*r, "warmup").as_bool();
      out += "| " + escape_markup(text_at(*r, "name")) + (warm ? " (warm-up)" : "") + " | " +
             fixed(number_or_zero(*r, "step_ms"), 3) + " | " +
             fixed(number_or_zero(*r, "host_ms"), 3) + " | " +
             fixed(number_or_zero(*r, "busy_ms"), 3) + " | " +
             fixed(number_or_zero(*r, "computation_ms"), 3) + " | " +
             fixed(number_or_zero(*r, "communication_ms"), 3) + " | " +
             fixed(number_or_zero(*r, "memcpy_ms"), 3) + " | " +
             fixed(number_or_zero(idle, "host_ms"), 3) + " | " +
             fixed(number_or_zero(idle, "sync_ms"), 3) + " | " +
             fixed(number_or_zero(idle, "queued_ms"), 3) + " | " +
             fixed(number_or_zero(idle, "unlinked_ms"), 3) + " | " + queue_cell(*r) + " |\n";
    }
    const auto listed = static_cast<std::int64_t>(rows.size());
    if (int_or_zero(block, "count") > listed) {
      out += "\n" + std::to_string(int_or_zero(block, "count") - listed) +
             " more steps are in findings.json (`steps.table`).\n";
    }
    out += "\n";
    if (const Json& a = member_of(block, "aggregate"); a.is_object()) {
      out += "**Steady steps** (" + std::to_string(int_or_zero(a, "steps")) + "): median " +
             fixed(number_or_zero(a, "median_step_ms"), 3) + " ms, mean " +
             fixed(number_or_zero(a, "mean_step_ms"), 3) + " ms, " +
             fixed(number_or_zero(a, "min_step_ms"), 3) + " to " +
             fixed(number_or_zero(a, "max_step_ms"), 3) + " ms; per step on average " +
             fixed(number_or_zero(a, "mean_busy_ms"), 3) + " ms GPU busy, " +
             fixed(number_or_zero(a, "mean_idle_ms"), 3) + " ms GPU idle.";
      if (const std::string v = variation_sentence(block); !v.empty()) out += " " + v;
      out += "\n\n";
    }
  }
  out += report_detail::markdown_bullets(member_of(block, "not_used"), "Not used for the steps");
  return out;
}

std::string steps_report_html(const Json& block) {
  if (!block.is_object()) return {};
  std::string out = "<section id=\"steps\"><h2>Steps</h2>\n";
  if (text_at(block, "source") == "none") {
    out +=
        "<p>The trace has no ProfilerStep annotation and no serving-engine step label: there "
        "is no per-step table.</p>\n";
  } else {
    out += "<p>" + std::to_string(int_or_zero(block, "count")) + " steps from " +
           source_text(text_at(block, "source")) + ", " +
           std::to_string(int_or_zero(block, "warmup_steps")) +
           " warm-up (excluded from the aggregates).";
    if (const std::string v = variation_sentence(block); !v.empty()) out += " " + escape_markup(v);
    out +=
        "</p>\n<table>\n<tr><th>Step</th><th>Time (ms)</th><th>Host (ms)</th><th>GPU busy "
        "(ms)</th><th>Compute</th><th>Comm</th><th>Memcpy</th><th>Idle host</th><th>Idle "
        "sync</th><th>Idle queued</th><th>Idle unlinked</th><th>Queue mean / max</th></tr>\n";
    for (const Json* r : listed_rows(block)) {
      const Json& idle = member_of(*r, "idle");
      const bool warm = member_of(*r, "warmup").is_bool() && member_of(*r, "warmup").as_bool();
      out += "<tr><td>" + escape_markup(text_at(*r, "name")) + (warm ? " (warm-up)" : "") + "</td>";
      for (const double v :
           {number_or_zero(*r, "step_ms"), number_or_zero(*r, "host_ms"),
            number_or_zero(*r, "busy_ms"), number_or_zero(*r, "computation_ms"),
            number_or_zero(*r, "communication_ms"), number_or_zero(*r, "memcpy_ms"),
            number_or_zero(idle, "host_ms"), number_or_zero(idle, "sync_ms"),
            number_or_zero(idle, "queued_ms"), number_or_zero(idle, "unlinked_ms")}) {
        out += "<td class=\"num\">" + fixed(v, 3) + "</td>";
      }
      out += "<td class=\"num\">" + queue_cell(*r) + "</td></tr>\n";
    }
    out += "</table>\n";
  }
  if (const Json& problems = member_of(block, "not_used");
      problems.is_array() && problems.size() > 0) {
    out += "<p>Not used for the steps:</p><ul>\n";
    for (const Json& p : problems.as_array()) {
      if (p.is_string()) out += "<li>" + escape_markup(p.as_string()) + "</li>\n";
    }
    out += "</ul>\n";
  }
  return out + "</section>\n";
}

}  // namespace loupe::core
