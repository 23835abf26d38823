#include "loupe/core/prepare/trace_views.hpp"

#include <algorithm>
#include <charconv>
#include <string>
#include <vector>

#include "host_stack.hpp"
#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "loupe/core/prepare/serving_summary.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"

namespace loupe::core::prepare {
namespace {

using trace::Uid;

CsvCell text_cell(std::string text) {
  CsvCell c;
  c.kind = CsvCell::Kind::Text;
  c.text = std::move(text);
  return c;
}

CsvCell number_cell(std::int64_t value) {
  CsvCell c;
  c.kind = CsvCell::Kind::Number;
  c.number = static_cast<double>(value);
  c.text = std::to_string(value);
  return c;
}

CsvCell real_cell(double value, std::string text) {
  CsvCell c;
  c.kind = CsvCell::Kind::Number;
  c.number = value;
  c.text = std::move(text);
  return c;
}

CsvCell uid_or_empty(Uid uid) {
  return uid == trace::kNoUid ? CsvCell{} : number_cell(static_cast<std::int64_t>(uid));
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

std::optional<std::int64_t> int_arg(const trace::TraceModel& model, Uid uid, const char* key) {
  const auto text = model.arg_text(uid, key);
  if (!text) return std::nullopt;
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), v);
  if (ec != std::errc() || ptr != text->data() + text->size()) return std::nullopt;
  return v;
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

CsvCell time_or_empty(std::int64_t ns) {
  return ns == trace::kNoValue ? CsvCell{} : number_cell(ns);
}

CsvCell tid_or_empty(const trace::TraceModel& model, const trace::Event& e) {
  if (e.thread == trace::kNoIndex) return CsvCell{};
  return text_cell(model.id_text(model.threads()[e.thread].key.tid));
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
  std::vector<CsvCell> cells;
  for (Uid u = 0; u < model.event_count(); ++u) {
    const trace::Event& e = model.event(u);
    if (!trace::is_gpu_category(e.category)) continue;
    const std::string_view kind = kind_of(model, u);
    cells.push_back(number_cell(static_cast<std::int64_t>(u)));
    cells.push_back(text_cell(std::string(kind)));
    cells.push_back(text_cell(std::string(model.name(u))));
    const trace::ThreadInfo* thread =
        e.thread != trace::kNoIndex ? &model.threads()[e.thread] : nullptr;
    cells.push_back(thread != nullptr ? text_cell(model.id_text(thread->key.pid)) : CsvCell{});
    if (const auto stream = int_arg(model, u, "stream")) {
      cells.push_back(number_cell(*stream));
    } else {
      cells.push_back(thread != nullptr ? text_cell(model.id_text(thread->key.tid)) : CsvCell{});
    }
    cells.push_back(e.ts_ns == trace::kNoValue ? CsvCell{} : number_cell(e.ts_ns));
    cells.push_back(e.dur_ns == trace::kNoValue ? CsvCell{} : number_cell(e.dur_ns));
    cells.push_back(text_cell(tree.linked(u) ? "True" : "False"));
    const Uid launcher = tree.parent(u);
    cells.push_back(uid_or_empty(launcher));
    cells.push_back(launcher == trace::kNoUid ? CsvCell{}
                                              : text_cell(std::string(model.name(launcher))));
    const Uid op = nearest_cpu_op(model, tree, u);
    cells.push_back(uid_or_empty(op));
    cells.push_back(op == trace::kNoUid ? CsvCell{} : text_cell(std::string(model.name(op))));
    cells.push_back(kind == "memcpy" ? text_cell(std::string(memcpy_direction_name(model.name(u))))
                                     : CsvCell{});
    const auto bytes = int_arg(model, u, "bytes");
    cells.push_back(bytes ? number_cell(*bytes) : CsvCell{});
    if (launcher == trace::kNoUid) {
      cells.insert(cells.end(), 3, CsvCell{});
    } else {
      const trace::Event& l = model.event(launcher);
      cells.push_back(time_or_empty(l.ts_ns));
      cells.push_back(time_or_empty(l.dur_ns));
      cells.push_back(tid_or_empty(model, l));
    }
    cells.push_back(launcher == trace::kNoUid ? CsvCell{}
                                              : text_cell(host_stack(model, tree, launcher)));
  }
  return std::make_shared<const CsvTable>(std::move(header), std::move(cells));
}

std::shared_ptr<const CsvTable> op_kernels_table(const trace::TraceModel& model,
                                                 const trace::EventTree& tree) {
  std::vector<std::string> header = {"op_uid", "op_name", "kernel_count", "kernel_time_us",
                                     "kernel_uids"};
  std::vector<CsvCell> cells;
  for (Uid u = 0; u < model.event_count(); ++u) {
    if (model.event(u).category != trace::Category::kCpuOp || !tree.has_gpu_events(u)) continue;
    const std::vector<Uid> kernels = tree.gpu_events(u);
    std::string uids;
    for (const Uid k : kernels) {
      if (!uids.empty()) uids.push_back(' ');
      uids += std::to_string(k);
    }
    const std::int64_t ns = busy_ns(model, kernels);
    cells.push_back(number_cell(static_cast<std::int64_t>(u)));
    cells.push_back(text_cell(std::string(model.name(u))));
    cells.push_back(number_cell(static_cast<std::int64_t>(kernels.size())));
    cells.push_back(real_cell(static_cast<double>(ns) / 1000.0, us_text(ns)));
    cells.push_back(text_cell(std::move(uids)));
  }
  return std::make_shared<const CsvTable>(std::move(header), std::move(cells));
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
  std::vector<CsvCell> cells;
  for (Uid u = 0; u < model.event_count(); ++u) {
    const std::string_view kind = host_call_kind(model, u);
    if (kind.empty()) continue;
    const trace::Event& e = model.event(u);
    if (e.ts_ns == trace::kNoValue || e.dur_ns == trace::kNoValue) continue;
    cells.push_back(number_cell(static_cast<std::int64_t>(u)));
    cells.push_back(text_cell(std::string(kind)));
    cells.push_back(text_cell(std::string(model.name(u))));
    const trace::ThreadInfo* thread =
        e.thread != trace::kNoIndex ? &model.threads()[e.thread] : nullptr;
    cells.push_back(thread != nullptr ? text_cell(model.id_text(thread->key.pid)) : CsvCell{});
    cells.push_back(tid_or_empty(model, e));
    cells.push_back(number_cell(e.ts_ns));
    cells.push_back(number_cell(e.dur_ns));
    const Uid op = nearest_cpu_op(model, tree, u);
    cells.push_back(uid_or_empty(op));
    cells.push_back(op == trace::kNoUid ? CsvCell{} : text_cell(std::string(model.name(op))));
    cells.push_back(text_cell(host_stack(model, tree, u)));
  }
  return std::make_shared<const CsvTable>(std::move(header), std::move(cells));
}

}  // namespace

TraceViews build_trace_views(const trace::TraceModel& model, const trace::EventTree& tree) {
  TraceViews views{gpu_events_table(model, tree), op_kernels_table(model, tree),
                   host_calls_table(model, tree), nullptr};
  if (const ServingSummary serving = build_serving_summary(model, tree); !serving.empty()) {
    views.serving_summary =
        parse_json_document(loupe::dump_python_json(serving_summary_json(serving), 0));
  }
  return views;
}

void install_trace_views(Model& model, const TraceViews& views) {
  model.set_table("trace/gpu_events.csv", views.gpu_events);
  model.set_table("trace/op_kernels.csv", views.op_kernels);
  if (views.host_calls) model.set_table("trace/host_calls.csv", views.host_calls);
  if (views.serving_summary) {
    model.set_document("trace/serving_summary.json", views.serving_summary);
  }
}

}  // namespace loupe::core::prepare
