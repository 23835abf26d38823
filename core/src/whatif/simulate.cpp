// Replaying the run's dependency model with changed GPU op durations, and the critical path of
// the replayed schedule (docs/what-if.md, "The replay").
#include "loupe/core/whatif/simulate.hpp"

#include <algorithm>
#include <limits>

namespace loupe::core::whatif {

std::string_view path_kind_name(PathKind kind) {
  switch (kind) {
    case PathKind::kGpuCompute:
      return "GPU compute";
    case PathKind::kCommunication:
      return "communication";
    case PathKind::kMemcpy:
      return "memcpy/memset";
    case PathKind::kHost:
      return "launch overhead / host work";
    case PathKind::kSync:
      return "sync";
    case PathKind::kGpuQueue:
      break;
  }
  return "GPU queue/dependency gaps";
}

std::int64_t PathComposition::total() const {
  std::int64_t sum = 0;
  for (const std::int64_t v : ns) sum += v;
  return sum;
}

namespace {

constexpr std::int64_t kMinTime = std::numeric_limits<std::int64_t>::min();

enum class Bind : std::uint8_t { kRoot, kLaunch, kStream, kWait, kOwn };

struct Schedule {
  std::vector<std::int64_t> op_start, op_end, node_start, node_end;
  std::vector<Bind> op_bind, node_bind;
  std::vector<std::uint32_t> op_pred, node_pred;  // the op waited for (kWait)
};

PathKind kind_of(OpClass c) {
  switch (c) {
    case OpClass::kCommunication:
      return PathKind::kCommunication;
    case OpClass::kMemcpy:
    case OpClass::kMemset:
      return PathKind::kMemcpy;
    case OpClass::kCompute:
      break;
  }
  return PathKind::kGpuCompute;
}

Schedule replay(const RunGraph& g, const std::vector<std::int64_t>& dur) {
  const auto& ops = g.ops();
  const auto& nodes = g.host_nodes();
  const auto nops = static_cast<std::uint32_t>(ops.size());
  Schedule s;
  s.op_start.resize(nops);
  s.op_end.resize(nops);
  s.op_bind.assign(nops, Bind::kRoot);
  s.op_pred.assign(nops, kNone);
  s.node_start.resize(nodes.size());
  s.node_end.resize(nodes.size());
  s.node_bind.assign(nodes.size(), Bind::kRoot);
  s.node_pred.assign(nodes.size(), kNone);
  // Measured values first: a node replayed out of order (cycle) reads measured times.
  for (std::uint32_t i = 0; i < nops; ++i) {
    s.op_start[i] = ops[i].start;
    s.op_end[i] = ops[i].start + ops[i].dur;
  }
  for (std::size_t h = 0; h < nodes.size(); ++h) {
    s.node_start[h] = nodes[h].start;
    s.node_end[h] = nodes[h].start + nodes[h].dur;
  }
  for (const std::uint32_t v : g.order()) {
    if (v < nops) {
      const GpuOp& op = ops[v];
      std::int64_t best = kMinTime;
      Bind bind = Bind::kRoot;
      std::uint32_t pred = kNone;
      if (op.launch != kNone) {
        best = s.node_start[op.launch] + op.launch_latency;
        bind = Bind::kLaunch;
      }
      if (op.stream_prev != kNone) {
        const std::int64_t t = s.op_end[op.stream_prev] + op.stream_latency;
        if (t >= best) {
          best = t;
          bind = Bind::kStream;
        }
      }
      for (std::uint32_t k = op.waits_begin; k < op.waits_end; ++k) {
        const WaitEdge& w = g.op_waits()[k];
        const std::int64_t t = s.op_end[w.op] + w.latency;
        if (t >= best) {
          best = t;
          bind = Bind::kWait;
          pred = w.op;
        }
      }
      if (bind == Bind::kRoot) best = op.start;
      s.op_start[v] = best;
      s.op_end[v] = best + dur[v];
      s.op_bind[v] = bind;
      s.op_pred[v] = pred;
      continue;
    }
    const auto nh = static_cast<std::uint32_t>(nodes.size());
    if (v < nops + nh) {  // a host call's start: its thread's last blocking call moved it
      const std::uint32_t h = v - nops;
      const HostNode& node = nodes[h];
      std::int64_t shift = 0;
      if (node.prior_block != kNone) {
        const HostNode& b = nodes[node.prior_block];
        shift = s.node_end[node.prior_block] - (b.start + b.dur);
      }
      s.node_start[h] = node.start + shift;
      s.node_end[h] = s.node_start[h] + node.dur;
      continue;
    }
    const std::uint32_t h = v - nops - nh;  // a host call's end
    const HostNode& node = nodes[h];
    if (!node.blocking) continue;
    std::int64_t best = s.node_start[h] + node.own_latency;
    Bind bind = Bind::kOwn;
    std::uint32_t pred = kNone;
    for (std::uint32_t k = node.waits_begin; k < node.waits_end; ++k) {
      const WaitEdge& w = g.host_waits()[k];
      const std::int64_t t = s.op_end[w.op] + w.latency;
      if (t >= best) {
        best = t;
        bind = Bind::kWait;
        pred = w.op;
      }
    }
    s.node_end[h] = best;
    s.node_bind[h] = bind;
    s.node_pred[h] = pred;
  }
  return s;
}

std::int64_t host_time(const RunGraph& g, const Schedule& s, const HostTime& t) {
  if (t.prior_block == kNone) return t.time;
  const HostNode& b = g.host_nodes()[t.prior_block];
  return t.time + (s.node_end[t.prior_block] - (b.start + b.dur));
}

struct Segment {
  std::int64_t from, to;
  PathKind kind;
};

// Walks the binding edges back from the run's end; the segments cover [run_start, run_end]
// once, latest first.
class PathWalk {
 public:
  PathWalk(const RunGraph& g, const Schedule& s, std::int64_t run_start, std::int64_t run_end)
      : g_(g), s_(s), start_(run_start), cursor_(run_end) {}

  std::vector<Segment> from_op(std::uint32_t op) {
    state_ = State::kOp;
    index_ = op;
    run();
    return std::move(segments_);
  }
  std::vector<Segment> from_host(std::uint32_t prior_block) {
    state_ = State::kHost;
    index_ = prior_block;
    run();
    return std::move(segments_);
  }

 private:
  enum class State : std::uint8_t { kOp, kHost, kBlock, kDone };

  void back_to(std::int64_t t, PathKind kind) {
    t = std::max(t, start_);
    if (t < cursor_) {
      segments_.push_back({t, cursor_, kind});
      cursor_ = t;
    }
    if (cursor_ <= start_) state_ = State::kDone;
  }

  void run() {
    const std::size_t limit = g_.ops().size() + g_.host_nodes().size() + 2;
    for (std::size_t i = 0; i < limit && state_ != State::kDone; ++i) {
      switch (state_) {
        case State::kOp: {
          const std::uint32_t op = index_;
          back_to(s_.op_start[op], kind_of(g_.ops()[op].op_class));
          if (state_ == State::kDone) break;
          switch (s_.op_bind[op]) {
            case Bind::kLaunch: {
              // The launch's typical latency is launch overhead; any wait beyond it is the
              // GPU waiting on something the trace does not show.
              const std::uint32_t l = g_.ops()[op].launch;
              const std::int64_t typical = std::max<std::int64_t>(0, g_.stats().launch_latency_ns);
              back_to(s_.node_start[l] + typical, PathKind::kGpuQueue);
              if (state_ == State::kDone) break;
              back_to(s_.node_start[l], PathKind::kHost);
              state_ = state_ == State::kDone ? state_ : State::kHost;
              index_ = g_.host_nodes()[l].prior_block;
              break;
            }
            case Bind::kStream:
              index_ = g_.ops()[op].stream_prev;
              back_to(s_.op_end[index_], PathKind::kGpuQueue);
              break;
            case Bind::kWait:
              index_ = s_.op_pred[op];
              back_to(s_.op_end[index_], PathKind::kGpuQueue);
              break;
            default:
              back_to(start_, PathKind::kHost);
              break;
          }
          break;
        }
        case State::kHost:
          if (index_ == kNone) {
            back_to(start_, PathKind::kHost);
            break;
          }
          back_to(s_.node_end[index_], PathKind::kHost);
          if (state_ != State::kDone) state_ = State::kBlock;
          break;
        case State::kBlock: {
          const std::uint32_t b = index_;
          if (s_.node_bind[b] == Bind::kWait) {
            index_ = s_.node_pred[b];
            back_to(s_.op_end[index_], PathKind::kSync);
            if (state_ != State::kDone) state_ = State::kOp;
          } else {
            back_to(s_.node_start[b], PathKind::kSync);
            index_ = g_.host_nodes()[b].prior_block;
            if (state_ != State::kDone) state_ = State::kHost;
          }
          break;
        }
        case State::kDone:
          break;
      }
    }
    if (state_ != State::kDone) back_to(start_, PathKind::kHost);
  }

  const RunGraph& g_;
  const Schedule& s_;
  std::int64_t start_;
  std::int64_t cursor_;
  State state_ = State::kDone;
  std::uint32_t index_ = kNone;
  std::vector<Segment> segments_;
};

void add_overlap(PathComposition& c, const Segment& seg, std::int64_t lo, std::int64_t hi) {
  const std::int64_t a = std::max(seg.from, lo);
  const std::int64_t b = std::min(seg.to, hi);
  if (b > a) c.ns[static_cast<std::size_t>(seg.kind)] += b - a;
}

}  // namespace

Prediction simulate(const RunGraph& g, std::span<const KernelTarget> targets) {
  Prediction p;
  std::vector<std::int64_t> dur(g.ops().size());
  for (std::size_t i = 0; i < dur.size(); ++i) dur[i] = g.ops()[i].dur;
  std::int64_t changed_ns = 0, changed_unresolved_ns = 0;
  std::vector<std::uint8_t> seen(g.ops().size(), 0);
  for (const KernelTarget& t : targets) {
    const auto index = g.op_index(t.uid);
    if (!index) continue;
    dur[*index] = std::max<std::int64_t>(0, t.duration_ns);
    if (seen[*index] != 0) continue;
    seen[*index] = 1;
    ++p.changed_ops;
    const GpuOp& op = g.ops()[*index];
    changed_ns += op.dur;
    if (op.unresolved) changed_unresolved_ns += op.dur;
  }
  p.unresolved_share =
      changed_ns > 0 ? static_cast<double>(changed_unresolved_ns) / static_cast<double>(changed_ns)
                     : 0.0;
  p.heuristic = p.unresolved_share > kHeuristicShare;

  const Schedule s = replay(g, dur);
  const auto& steps = g.steps();
  if (steps.empty()) return p;

  // Step windows in the replayed schedule, and what ends the run.
  std::vector<std::int64_t> starts(steps.size()), ends(steps.size());
  std::uint32_t last_op = kNone;
  std::uint32_t last_node = kNone;
  bool last_is_annotation = false;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& st = steps[i];
    std::int64_t start = host_time(g, s, st.start);
    std::int64_t end = st.anchored ? host_time(g, s, st.end) : kMinTime;
    bool annotation = st.anchored;
    std::uint32_t end_op = kNone, end_node = kNone;
    for (std::uint32_t k = st.ops_begin; k < st.ops_end; ++k) {
      const std::uint32_t op = g.step_ops()[k];
      if (s.op_end[op] > end) {
        end = s.op_end[op];
        end_op = op;
        annotation = false;
      }
    }
    if (!st.anchored) {
      start = std::numeric_limits<std::int64_t>::max();
      for (std::size_t op = 0; op < g.ops().size(); ++op) start = std::min(start, s.op_start[op]);
      for (std::size_t h = 0; h < g.host_nodes().size(); ++h) {
        start = std::min(start, s.node_start[h]);
        if (s.node_end[h] > end) {
          end = s.node_end[h];
          end_node = static_cast<std::uint32_t>(h);
          end_op = kNone;
        }
      }
      if (end == kMinTime) end = start;
    }
    starts[i] = start;
    ends[i] = end;
    if (i + 1 == steps.size()) {
      last_op = end_op;
      last_node = end_node;
      last_is_annotation = annotation;
    }
  }
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const std::int64_t end = i + 1 < steps.size() ? std::min(ends[i], starts[i + 1]) : ends[i];
    StepPrediction sp;
    sp.predicted_ns = end - starts[i];
    sp.measured_ns = g.measured_steps()[i];
    p.steps.push_back(sp);
    ends[i] = end;
  }
  p.measured_total_ns = g.measured_total();
  const std::int64_t run_start = starts.front();
  const std::int64_t run_end = ends.back();
  p.predicted_total_ns = run_end - run_start;

  // The critical path of the replayed schedule.
  PathWalk walk(g, s, run_start, run_end);
  std::vector<Segment> segments;
  if (last_op != kNone) {
    segments = walk.from_op(last_op);
  } else if (last_node != kNone) {
    const HostNode& node = g.host_nodes()[last_node];
    segments = walk.from_host(node.blocking ? last_node : node.prior_block);
  } else if (last_is_annotation) {
    segments = walk.from_host(steps.back().end.prior_block);
  } else {
    segments = walk.from_host(kNone);
  }
  // Segments come latest first; step windows are disjoint and in time order.
  std::size_t w = steps.size();
  for (const Segment& seg : segments) {
    add_overlap(p.path, seg, run_start, run_end);
    while (w > 0 && starts[w - 1] >= seg.to) --w;
    for (std::size_t i = w; i-- > 0;) {
      if (ends[i] <= seg.from) break;
      add_overlap(p.steps[i].path, seg, starts[i], ends[i]);
    }
  }
  return p;
}

StepGain predict_gain(const RunGraph& graph, std::span<const KernelTarget> targets) {
  const Prediction p = simulate(graph, targets);
  StepGain gain;
  for (std::size_t i = 0; i < p.steps.size(); ++i) {
    const std::int64_t d = graph.identity_steps()[i] - p.steps[i].predicted_ns;
    gain.per_step_ns.push_back(d);
    gain.sum_ns += d;
  }
  gain.total_ns = graph.identity_total() - p.predicted_total_ns;
  gain.unresolved_share = p.unresolved_share;
  gain.heuristic = p.heuristic;
  return gain;
}

}  // namespace loupe::core::whatif
