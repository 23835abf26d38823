#include "trace_inputs.hpp"

#include <array>
#include <charconv>
#include <vector>

namespace loupe::cpu_idle {

namespace {

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t v = 0;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || ec != std::errc() || ptr != text.data() + text.size()) return std::nullopt;
  return v;
}

// The columns a reader needs, looked up once: `index[i]` is the column of `names[i]`.
template <size_t N>
struct Columns {
  std::array<size_t, N> index{};
  std::string missing;  // the first absent name, "" when all are present

  Columns(const TableSource& t, const std::array<const char*, N>& names) {
    for (size_t i = 0; i < N; ++i) {
      index[i] = t.column(names[i]);
      if (index[i] == TableSource::npos && missing.empty()) missing = names[i];
    }
  }
};

std::optional<HostCallKind> call_kind(std::string_view kind) {
  if (kind == "sync") return HostCallKind::Sync;
  if (kind == "sync_copy") return HostCallKind::SyncCopy;
  if (kind == "scalar_read") return HostCallKind::ScalarRead;
  if (kind == "data_loader") return HostCallKind::DataLoader;
  if (kind == "stream_wait") return HostCallKind::StreamWait;
  return std::nullopt;
}

bool read_ops(const TableSource& t, TraceInputs& in) {
  enum {
    kKind,
    kName,
    kDevice,
    kTs,
    kDur,
    kLauncherName,
    kOpName,
    kMemcpyDirection,
    kLauncherTs,
    kLauncherDur,
    kLauncherTid,
    kOpStack
  };
  const Columns<12> c(
      t, {"kind", "name", "device", "ts_ns", "dur_ns", "launcher_name", "op_name",
          "memcpy_direction", "launcher_ts_ns", "launcher_dur_ns", "launcher_tid", "op_stack"});
  if (!c.missing.empty()) {
    in.problem = std::string(kGpuEventsView) + ": no column '" + c.missing + "'";
    return false;
  }
  const auto text = [&](size_t r, int column) { return t.cell(r, c.index[column]); };
  const size_t rows = t.row_count();
  for (size_t r = 0; r < rows; ++r) {
    const auto ts = integer(t.cell(r, c.index[kTs]));
    const auto dur = integer(t.cell(r, c.index[kDur]));
    if (!ts || !dur || *dur < 0) continue;  // an op without a time is not on the timeline
    GpuOp op;
    op.device = text(r, kDevice);
    op.name = text(r, kName);
    op.kind = text(r, kKind);
    op.memcpy_direction = text(r, kMemcpyDirection);
    op.start_ns = *ts;
    op.end_ns = *ts + *dur;
    const auto lts = integer(t.cell(r, c.index[kLauncherTs]));
    const auto ldur = integer(t.cell(r, c.index[kLauncherDur]));
    if (lts && ldur) {
      op.launch = Launch{*lts, *ldur, text(r, kLauncherTid), text(r, kLauncherName)};
    }
    op.op_name = text(r, kOpName);
    op.op_stack = text(r, kOpStack);
    in.ops.push_back(op);
  }
  return true;
}

bool read_calls(const TableSource& t, TraceInputs& in) {
  enum { kKind, kName, kTid, kTs, kDur, kOpName, kOpStack };
  const Columns<7> c(t, {"kind", "name", "tid", "ts_ns", "dur_ns", "op_name", "op_stack"});
  if (!c.missing.empty()) {
    in.problem = std::string(kHostCallsView) + ": no column '" + c.missing + "'";
    return false;
  }
  const auto text = [&](size_t r, int column) { return t.cell(r, c.index[column]); };
  const size_t rows = t.row_count();
  for (size_t r = 0; r < rows; ++r) {
    const auto kind = call_kind(t.cell(r, c.index[kKind]));
    const auto ts = integer(t.cell(r, c.index[kTs]));
    const auto dur = integer(t.cell(r, c.index[kDur]));
    if (!kind || !ts || !dur || *dur < 0) continue;
    HostCall call;
    call.kind = *kind;
    call.name = text(r, kName);
    call.tid = text(r, kTid);
    call.start_ns = *ts;
    call.end_ns = *ts + *dur;
    call.op_name = text(r, kOpName);
    call.op_stack = text(r, kOpStack);
    in.calls.push_back(call);
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

TraceInputs read_trace_inputs(const TableSource* gpu_events, const TableSource* host_calls) {
  TraceInputs in;
  if (gpu_events == nullptr) return in;
  in.present = true;
  if (!read_ops(*gpu_events, in)) return in;
  if (host_calls != nullptr) read_calls(*host_calls, in);
  return in;
}

}  // namespace loupe::cpu_idle
