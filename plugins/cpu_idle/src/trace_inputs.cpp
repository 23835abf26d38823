#include "trace_inputs.hpp"

#include <charconv>
#include <initializer_list>
#include <vector>

namespace loupe::cpu_idle {

namespace {

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

// The missing one of `names`, or "" when all are present.
std::string missing_column(const TextTable& t, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (t.column(n) == TextTable::npos) return n;
  }
  return {};
}

std::string_view at(const TextTable& t, size_t row, const char* column) {
  return t.cell(row, t.column(column));
}

std::string text(const TextTable& t, size_t row, const char* column) {
  return std::string(at(t, row, column));
}

std::optional<HostCallKind> call_kind(std::string_view kind) {
  if (kind == "sync") return HostCallKind::Sync;
  if (kind == "sync_copy") return HostCallKind::SyncCopy;
  if (kind == "scalar_read") return HostCallKind::ScalarRead;
  if (kind == "data_loader") return HostCallKind::DataLoader;
  if (kind == "stream_wait") return HostCallKind::StreamWait;
  return std::nullopt;
}

bool read_ops(const TextTable& t, TraceInputs& in) {
  if (const std::string m = missing_column(
          t, {"kind", "name", "device", "ts_ns", "dur_ns", "launcher_name", "op_name",
              "memcpy_direction", "launcher_ts_ns", "launcher_dur_ns", "launcher_tid", "op_stack"});
      !m.empty()) {
    in.problem = std::string(kGpuEventsView) + ": no column '" + m + "'";
    return false;
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto ts = integer(at(t, r, "ts_ns"));
    const auto dur = integer(at(t, r, "dur_ns"));
    if (!ts || !dur || *dur < 0) continue;  // an op without a time is not on the timeline
    GpuOp op;
    op.device = text(t, r, "device");
    op.name = text(t, r, "name");
    op.kind = text(t, r, "kind");
    op.memcpy_direction = text(t, r, "memcpy_direction");
    op.start_ns = *ts;
    op.end_ns = *ts + *dur;
    const auto lts = integer(at(t, r, "launcher_ts_ns"));
    const auto ldur = integer(at(t, r, "launcher_dur_ns"));
    if (lts && ldur) {
      op.launch = Launch{*lts, *ldur, text(t, r, "launcher_tid"), text(t, r, "launcher_name")};
    }
    op.op_name = text(t, r, "op_name");
    op.op_stack = text(t, r, "op_stack");
    in.ops.push_back(std::move(op));
  }
  return true;
}

bool read_calls(const TextTable& t, TraceInputs& in) {
  if (const std::string m =
          missing_column(t, {"kind", "name", "tid", "ts_ns", "dur_ns", "op_name", "op_stack"});
      !m.empty()) {
    in.problem = std::string(kHostCallsView) + ": no column '" + m + "'";
    return false;
  }
  for (size_t r = 0; r < t.rows.size(); ++r) {
    const auto kind = call_kind(at(t, r, "kind"));
    const auto ts = integer(at(t, r, "ts_ns"));
    const auto dur = integer(at(t, r, "dur_ns"));
    if (!kind || !ts || !dur || *dur < 0) continue;
    HostCall c;
    c.kind = *kind;
    c.name = text(t, r, "name");
    c.tid = text(t, r, "tid");
    c.start_ns = *ts;
    c.end_ns = *ts + *dur;
    c.op_name = text(t, r, "op_name");
    c.op_stack = text(t, r, "op_stack");
    in.calls.push_back(std::move(c));
  }
  return true;
}

}  // namespace

size_t TextTable::column(std::string_view name) const {
  for (size_t c = 0; c < columns.size(); ++c) {
    if (columns[c] == name) return c;
  }
  return npos;
}

std::string_view TextTable::cell(size_t row, size_t column) const {
  if (row >= rows.size() || column >= rows[row].size()) return {};
  return rows[row][column];
}

void keep_window(TraceInputs& in) {
  if (!in.window) return;
  const RecordingWindow& w = *in.window;
  // The rule of core's find_recording_window: before it, or starting at or after its end (a
  // zero-length op at its very end stays in).
  std::erase_if(in.ops, [&](const GpuOp& op) {
    return op.start_ns < w.start_ns || op.start_ns > w.end_ns ||
           (op.start_ns == w.end_ns && op.end_ns > w.end_ns);
  });
}

TraceInputs read_trace_inputs(const TextTable* gpu_events, const TextTable* host_calls) {
  TraceInputs in;
  if (gpu_events == nullptr) return in;
  in.present = true;
  if (!read_ops(*gpu_events, in)) return in;
  if (host_calls != nullptr) read_calls(*host_calls, in);
  return in;
}

}  // namespace loupe::cpu_idle
