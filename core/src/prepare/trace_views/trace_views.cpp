#include "loupe/core/prepare/trace_views.hpp"

#include <algorithm>
#include <charconv>
#include <future>
#include <string>
#include <vector>

#include "host_stack.hpp"
#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "loupe/core/prepare/serving_summary.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/memory_timeline.hpp"
#include "loupe/core/trace/recording_window.hpp"
#include "loupe/core/trace/step_table.hpp"

namespace loupe::core::prepare {
namespace {

using trace::Uid;

// Cells appended straight into the table's text arena (docs/performance.md, "Big traces").
void add_int(CsvTable& t, std::int64_t value) {
  char buffer[24];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value);
  t.add_number(static_cast<double>(value), std::string_view(buffer, end - buffer));
}

void add_uid_or_empty(CsvTable& t, Uid uid) {
  if (uid == trace::kNoUid) {
    t.add_empty();
  } else {
    add_int(t, static_cast<std::int64_t>(uid));
  }
}

void add_time_or_empty(CsvTable& t, std::int64_t ns) {
  if (ns == trace::kNoValue) {
    t.add_empty();
  } else {
    add_int(t, ns);
  }
}

std::string_view kind_of(const trace::TraceModel& model, Uid uid) {
  const trace::Event& e = model.event(uid);
  switch (trace::classify_gpu_op(e.category, model.name(uid))) {
    case trace::GpuClass::kMemcpy:
      return "memcpy";
    case trace::GpuClass::kCommunication:
      return "communication";
    case trace::GpuClass::kComputation:
      break;
  }
  return e.category == trace::Category::kGpuMemset ? "memset" : "kernel";
}

Uid nearest_cpu_op(const trace::TraceModel& model, const trace::EventTree& tree, Uid uid) {
  for (Uid a = tree.parent(uid); a != trace::kNoUid; a = tree.parent(a)) {
    if (model.event(a).category == trace::Category::kCpuOp) return a;
  }
  return trace::kNoUid;
}

// Length of the union of [ts, ts + dur] in ns (ops without a time are ignored).
std::int64_t busy_ns(const trace::TraceModel& model, const std::vector<Uid>& ops) {
  std::vector<std::pair<std::int64_t, std::int64_t>> spans;
  for (const Uid u : ops) {
    const trace::Event& e = model.event(u);
    if (e.ts_ns == trace::kNoValue || e.dur_ns == trace::kNoValue) continue;
    spans.emplace_back(e.ts_ns, e.ts_ns + e.dur_ns);
  }
  std::sort(spans.begin(), spans.end());
  std::int64_t total = 0, start = 0, end = 0;
  bool open = false;
  for (const auto& [s, t] : spans) {
    if (open && s <= end) {
      end = std::max(end, t);
      continue;
    }
    if (open) total += end - start;
    start = s;
    end = t;
    open = true;
  }
  if (open) total += end - start;
  return total;
}

void add_tid_or_empty(CsvTable& t, const trace::TraceModel& model, const trace::Event& e) {
  if (e.thread == trace::kNoIndex) {
    t.add_empty();
  } else {
    t.add_text(model.id_text(model.threads()[e.thread].key.tid));
  }
}

std::string us_text(std::int64_t ns) {
  std::string out = std::to_string(ns / 1000);
  std::string frac = std::to_string(ns % 1000);
  out += "." + std::string(3 - frac.size(), '0') + frac;
  return out;
}

std::shared_ptr<const CsvTable> gpu_events_table(const trace::TraceModel& model,
                                                 const trace::EventTree& tree) {
  std::vector<std::string> header = {"uid",
                                     "kind",
                                     "name",
                                     "device",
                                     "stream",
                                     "ts_ns",
                                     "dur_ns",
                                     "linked",
                                     "launcher_uid",
                                     "launcher_name",
                                     "op_uid",
                                     "op_name",
                                     "memcpy_direction",
                                     "bytes",
                                     "launcher_ts_ns",
                                     "launcher_dur_ns",
                                     "launcher_tid",
                                     "op_stack"};
  auto table = std::make_shared<CsvTable>(std::move(header));
  std::size_t rows = 0;
  for (Uid u = 0; u < model.event_count(); ++u) {
    if (trace::is_gpu_category(model.event(u).category)) ++rows;
  }
  table->reserve(rows * table->column_count(), 0);
  for (Uid u = 0; u < model.event_count(); ++u) {
    const trace::Event& e = model.event(u);
    if (!trace::is_gpu_category(e.category)) continue;
    CsvTable& t = *table;
    const std::string_view kind = kind_of(model, u);
    add_int(t, static_cast<std::int64_t>(u));
    t.add_text(kind);
    t.add_text(model.name(u));
    const trace::ThreadInfo* thread =
        e.thread != trace::kNoIndex ? &model.threads()[e.thread] : nullptr;
    if (thread != nullptr) {
      t.add_text(model.id_text(thread->key.pid));
    } else {
      t.add_empty();
    }
    if (const auto stream = model.int_arg(u, "stream")) {
      add_int(t, *stream);
    } else if (thread != nullptr) {
      t.add_text(model.id_text(thread->key.tid));
    } else {
      t.add_empty();
    }
    add_time_or_empty(t, e.ts_ns);
    add_time_or_empty(t, e.dur_ns);
    t.add_text(tree.linked(u) ? "True" : "False");
    const Uid launcher = tree.parent(u);
    add_uid_or_empty(t, launcher);
    if (launcher == trace::kNoUid) {
      t.add_empty();
    } else {
      t.add_text(model.name(launcher));
    }
    const Uid op = nearest_cpu_op(model, tree, u);
    add_uid_or_empty(t, op);
    if (op == trace::kNoUid) {
      t.add_empty();
    } else {
      t.add_text(model.name(op));
    }
    if (kind == "memcpy") {
      t.add_text(memcpy_direction_name(model.name(u)));
    } else {
      t.add_empty();
    }
    if (const auto bytes = model.int_arg(u, "bytes")) {
      add_int(t, *bytes);
    } else {
      t.add_empty();
    }
    if (launcher == trace::kNoUid) {
      for (int i = 0; i < 4; ++i) t.add_empty();  // launcher_ts_ns .. op_stack
    } else {
      const trace::Event& l = model.event(launcher);
      add_time_or_empty(t, l.ts_ns);
      add_time_or_empty(t, l.dur_ns);
      add_tid_or_empty(t, model, l);
      t.add_text(host_stack(model, tree, launcher));
    }
  }
  return table;
}

std::shared_ptr<const CsvTable> op_kernels_table(const trace::TraceModel& model,
                                                 const trace::EventTree& tree) {
  std::vector<std::string> header = {"op_uid", "op_name", "kernel_count", "kernel_time_us",
                                     "kernel_uids"};
  auto table = std::make_shared<CsvTable>(std::move(header));
  std::string uids;
  for (Uid u = 0; u < model.event_count(); ++u) {
    if (model.event(u).category != trace::Category::kCpuOp || !tree.has_gpu_events(u)) continue;
    const std::vector<Uid> kernels = tree.gpu_events(u);
    uids.clear();
    for (const Uid k : kernels) {
      if (!uids.empty()) uids.push_back(' ');
      char buffer[16];
      const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, k);
      uids.append(buffer, end);
    }
    const std::int64_t ns = busy_ns(model, kernels);
    CsvTable& t = *table;
    add_int(t, static_cast<std::int64_t>(u));
    t.add_text(model.name(u));
    add_int(t, static_cast<std::int64_t>(kernels.size()));
    t.add_number(static_cast<double>(ns) / 1000.0, us_text(ns));
    t.add_text(uids);
  }
  return table;
}

std::string_view host_call_kind(const trace::TraceModel& model, Uid uid) {
  const trace::Event& e = model.event(uid);
  const std::string_view name = model.name(uid);
  if (trace::is_runtime_category(e.category)) {
    if (name.find("Synchronize") != std::string_view::npos) return "sync";
    if (name.find("StreamWaitEvent") != std::string_view::npos) return "stream_wait";
    if (name.find("emcpy") != std::string_view::npos &&
        name.find("Async") == std::string_view::npos) {
      return "sync_copy";
    }
    return {};
  }
  if (e.category == trace::Category::kCpuOp &&
      (name == "aten::_local_scalar_dense" || name == "aten::item")) {
    return "scalar_read";
  }
  if (e.category == trace::Category::kUserAnnotation && name.starts_with("enumerate(DataLoader)")) {
    return "data_loader";
  }
  return {};
}

std::shared_ptr<const CsvTable> host_calls_table(const trace::TraceModel& model,
                                                 const trace::EventTree& tree) {
  std::vector<std::string> header = {"uid",   "kind",   "name",   "pid",     "tid",
                                     "ts_ns", "dur_ns", "op_uid", "op_name", "op_stack"};
  auto table = std::make_shared<CsvTable>(std::move(header));
  for (Uid u = 0; u < model.event_count(); ++u) {
    const std::string_view kind = host_call_kind(model, u);
    if (kind.empty()) continue;
    const trace::Event& e = model.event(u);
    if (e.ts_ns == trace::kNoValue || e.dur_ns == trace::kNoValue) continue;
    CsvTable& t = *table;
    add_int(t, static_cast<std::int64_t>(u));
    t.add_text(kind);
    t.add_text(model.name(u));
    const trace::ThreadInfo* thread =
        e.thread != trace::kNoIndex ? &model.threads()[e.thread] : nullptr;
    if (thread != nullptr) {
      t.add_text(model.id_text(thread->key.pid));
    } else {
      t.add_empty();
    }
    add_tid_or_empty(t, model, e);
    add_int(t, e.ts_ns);
    add_int(t, e.dur_ns);
    const Uid op = nearest_cpu_op(model, tree, u);
    add_uid_or_empty(t, op);
    if (op == trace::kNoUid) {
      t.add_empty();
    } else {
      t.add_text(model.name(op));
    }
    t.add_text(host_stack(model, tree, u));
  }
  return table;
}

}  // namespace

TraceViews build_trace_summaries(const trace::TraceModel& model, const trace::EventTree& tree,
                                 const TraceViewsOptions& options) {
  TraceViews views;
  if (const auto window = trace::find_recording_window(model, tree)) {
    views.recording_window =
        parse_json_document(loupe::dump_python_json(trace::recording_window_json(*window), 0));
  }
  const trace::StepTable steps = trace::build_step_table(model, tree);
  views.steps = parse_json_document(loupe::dump_python_json(trace::step_table_json(steps), 0));
  const trace::MemoryTimeline memory = trace::build_memory_timeline(model, tree, steps);
  views.memory =
      parse_json_document(loupe::dump_python_json(trace::memory_timeline_json(memory), 0));
  if (options.memory_csv && !memory.devices.empty()) {
    views.memory_csv = trace::memory_timeline_csv(memory);
  }
  if (const ServingSummary serving = build_serving_summary(model, tree); !serving.empty()) {
    views.serving_summary =
        parse_json_document(loupe::dump_python_json(serving_summary_json(serving), 0));
  }
  return views;
}

void add_trace_tables(TraceViews& views, const trace::TraceModel& model,
                      const trace::EventTree& tree) {
  // The three tables only read the model and the tree: the largest (a row per GPU op, about
  // two thirds of the time) is built on a helper thread beside the other two
  // (docs/performance.md, "Big traces"). If these throw, the future's destructor waits for it.
  auto gpu_events =
      std::async(std::launch::async, [&model, &tree] { return gpu_events_table(model, tree); });
  views.op_kernels = op_kernels_table(model, tree);
  views.host_calls = host_calls_table(model, tree);
  views.gpu_events = gpu_events.get();
}

TraceViews build_trace_views(const trace::TraceModel& model, const trace::EventTree& tree,
                             const TraceViewsOptions& options) {
  TraceViews views = build_trace_summaries(model, tree, options);
  add_trace_tables(views, model, tree);
  if (options.run_graph) {
    views.run_graph =
        std::make_shared<const whatif::RunGraph>(whatif::RunGraph::build(model, tree));
  }
  return views;
}

std::shared_ptr<const CsvTable> op_groups_table(std::span<const OpGroupKernels> groups) {
  auto table =
      std::make_shared<CsvTable>(std::vector<std::string>{"ex_UID", "kernel_count", "kernel_uids"});
  std::string uids;
  for (const OpGroupKernels& g : groups) {
    uids.clear();
    for (const Uid k : g.kernels) {
      if (!uids.empty()) uids.push_back(' ');
      char buffer[24];
      const auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, k);
      uids.append(buffer, end);
    }
    CsvTable& t = *table;
    add_int(t, g.ex_uid);
    add_int(t, static_cast<std::int64_t>(g.kernels.size()));
    t.add_text(uids);
  }
  return table;
}

void install_trace_views(Model& model, const TraceViews& views) {
  model.set_table("trace/gpu_events.csv", views.gpu_events);
  model.set_table("trace/op_kernels.csv", views.op_kernels);
  if (views.op_groups) model.set_table("trace/op_groups.csv", views.op_groups);
  if (views.host_calls) model.set_table("trace/host_calls.csv", views.host_calls);
  if (views.recording_window) {
    model.set_document("trace/recording_window.json", views.recording_window);
  }
  if (views.steps) model.set_document("trace/steps.json", views.steps);
  if (views.memory) model.set_document("trace/memory.json", views.memory);
  if (views.serving_summary) {
    model.set_document("trace/serving_summary.json", views.serving_summary);
  }
}

}  // namespace loupe::core::prepare
