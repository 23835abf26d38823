// Building the run's dependency model from the trace model and the event tree
// (docs/what-if.md, "The model"). Linear passes plus a few sorts; nothing points into the trace.
#include "loupe/core/whatif/run_graph.hpp"

#include <algorithm>
#include <deque>
#include <limits>
#include <unordered_map>

#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/step_labels.hpp"
#include "loupe/core/whatif/simulate.hpp"
#include "loupe/text.hpp"

namespace loupe::core::whatif {

std::string_view step_source_name(StepSource source) {
  switch (source) {
    case StepSource::kProfilerStep:
      return "ProfilerStep annotations";
    case StepSource::kServingLabel:
      return "serving-engine step labels";
    case StepSource::kWholeTrace:
      break;
  }
  return "whole trace (no step annotation)";
}

double RunGraph::unresolved_share() const {
  return stats_.op_ns > 0
             ? static_cast<double>(stats_.unresolved_ns) / static_cast<double>(stats_.op_ns)
             : 0.0;
}

std::optional<std::uint32_t> RunGraph::op_index(std::uint32_t uid) const {
  // ops_ are in uid order (built in one pass over the trace).
  const auto it = std::lower_bound(ops_.begin(), ops_.end(), uid,
                                   [](const GpuOp& op, std::uint32_t u) { return op.uid < u; });
  if (it == ops_.end() || it->uid != uid) return std::nullopt;
  return static_cast<std::uint32_t>(it - ops_.begin());
}

// Types of RunGraphBuilder's members: RunGraphBuilder is a friend of RunGraph and so has external
// linkage, and its members' types must not live in the anonymous namespace.
namespace run_graph_detail {

enum class BlockKind : std::uint8_t { kNone, kDeviceSync, kStreamSync, kCopy };

struct StreamKey {
  trace::IdValue device;
  std::int64_t stream = 0;
  bool operator==(const StreamKey&) const = default;
};
struct StreamKeyHash {
  std::size_t operator()(const StreamKey& k) const {
    return std::hash<std::int64_t>()(k.device.value * 131 + (k.device.is_string ? 7 : 0)) ^
           (std::hash<std::int64_t>()(k.stream) << 1);
  }
};

}  // namespace run_graph_detail

using run_graph_detail::BlockKind;
using run_graph_detail::StreamKey;
using run_graph_detail::StreamKeyHash;

namespace {

using trace::Uid;

using loupe::text::contains;

// Blocking host calls by name (docs/what-if.md, "Blocking calls"): synchronize calls and
// synchronous copies / memsets. An async copy that returned only after its own copy ended
// (pageable host memory) is found later, from the measured times.
BlockKind block_kind(std::string_view name) {
  if (contains(name, "DeviceSynchronize")) return BlockKind::kDeviceSync;
  if (contains(name, "Synchronize")) return BlockKind::kStreamSync;
  if ((contains(name, "emcpy") || contains(name, "emset")) && !contains(name, "Async")) {
    return BlockKind::kCopy;
  }
  return BlockKind::kNone;
}

bool is_async_copy(std::string_view name) {
  return (contains(name, "emcpy") || contains(name, "emset")) && contains(name, "Async");
}

bool is_event_record(std::string_view name) { return contains(name, "EventRecord"); }
bool is_stream_wait(std::string_view name) { return contains(name, "StreamWaitEvent"); }

// Times far from any real clock are left out, so that sums of times and latencies cannot overflow.
constexpr std::int64_t kTimeLimit = std::int64_t{1} << 61;

bool timed(const trace::Event& e) {
  return (e.flags & trace::kHasTs) != 0 && (e.flags & trace::kHasDur) != 0 &&
         e.ts_ns != trace::kNoValue && e.dur_ns != trace::kNoValue && e.thread != trace::kNoIndex &&
         e.ts_ns > -kTimeLimit && e.ts_ns < kTimeLimit && e.dur_ns >= 0 && e.dur_ns < kTimeLimit;
}

std::int64_t median(std::vector<std::int64_t>& v, std::int64_t fallback) {
  if (v.empty()) return fallback;
  auto mid = v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2);
  std::nth_element(v.begin(), mid, v.end());
  return *mid;
}

}  // namespace

class RunGraphBuilder {
 public:
  RunGraphBuilder(const trace::TraceModel& model, const trace::EventTree& tree, RunGraph& g)
      : model_(model), tree_(tree), g_(g) {}

  void build() {
    collect_ops();
    collect_host_nodes();
    order_streams();
    thread_chains();
    sweep_waits();
    calibrate();
    evaluation_order();
    build_steps();
    measure_steps();
  }

 private:
  std::uint32_t intern(std::string_view s) {
    const auto it = string_ids_.find(std::string(s));
    if (it != string_ids_.end()) return it->second;
    const auto id = static_cast<std::uint32_t>(g_.strings_.size());
    g_.strings_.emplace_back(s);
    string_ids_.emplace(std::string(s), id);
    return id;
  }

  std::uint32_t stream_of(const trace::Event& e, Uid u) {
    const trace::ThreadInfo& t = model_.threads()[e.thread];
    StreamKey key{t.key.pid, 0};
    if (const auto text = model_.arg_text(u, "stream")) {
      std::int64_t v = 0;
      bool ok = !text->empty();
      for (const char c : *text) {
        if (c < '0' || c > '9') {
          ok = false;
          break;
        }
        v = v * 10 + (c - '0');
      }
      key.stream = ok ? v : t.key.tid.value;
    } else {
      key.stream = t.key.tid.value;
    }
    const auto [it, added] =
        stream_ids_.emplace(key, static_cast<std::uint32_t>(stream_ids_.size()));
    return it->second;
  }

  Uid nearest_cpu_op(Uid u) const {
    for (Uid a = tree_.parent(u); a != trace::kNoUid; a = tree_.parent(a)) {
      if (model_.event(a).category == trace::Category::kCpuOp) return a;
    }
    return trace::kNoUid;
  }

  void collect_ops() {
    const auto n = static_cast<Uid>(model_.event_count());
    node_of_uid_.assign(n, kNone);
    std::unordered_map<Uid, std::pair<Uid, std::uint32_t>>
        first_kernel;  // cpu_op -> (launcher, name)
    std::unordered_map<Uid, std::uint32_t> op_name_of_launcher;
    std::vector<Uid> cpu_op_of;  // per op
    for (Uid u = 0; u < n; ++u) {
      const trace::Event& e = model_.event(u);
      if (!trace::is_gpu_category(e.category) || !timed(e)) continue;
      GpuOp op;
      op.uid = u;
      op.start = e.ts_ns;
      op.dur = e.dur_ns;
      op.stream = stream_of(e, u);
      op.name = intern(model_.name(u));
      switch (trace::classify_gpu_op(e.category, model_.name(u))) {
        case trace::GpuClass::kCommunication:
          op.op_class = OpClass::kCommunication;
          break;
        case trace::GpuClass::kMemcpy:
          op.op_class = OpClass::kMemcpy;
          break;
        case trace::GpuClass::kComputation:
          op.op_class =
              e.category == trace::Category::kGpuMemset ? OpClass::kMemset : OpClass::kCompute;
          break;
      }
      Uid cpu_op = trace::kNoUid;
      const Uid launcher = tree_.linked(u) ? tree_.parent(u) : trace::kNoUid;
      if (launcher != trace::kNoUid && timed(model_.event(launcher)) &&
          trace::is_runtime_category(model_.event(launcher).category)) {
        op.launch = host_node_for(launcher);
        cpu_op = nearest_cpu_op(u);
        if (cpu_op != trace::kNoUid) {
          auto [it, added] = first_kernel.emplace(cpu_op, std::make_pair(launcher, op.name));
          if (!added && launcher < it->second.first) it->second = {launcher, op.name};
        }
      }
      op.op_name = intern(cpu_op == trace::kNoUid ? std::string_view() : model_.name(cpu_op));
      cpu_op_of.push_back(cpu_op);
      g_.ops_.push_back(op);
    }
    // The perf model's category of each launching op (its first kernel decides some).
    std::unordered_map<std::uint64_t, std::uint32_t> category_cache;
    for (std::size_t i = 0; i < g_.ops_.size(); ++i) {
      const Uid cpu_op = cpu_op_of[i];
      if (cpu_op == trace::kNoUid) {
        g_.ops_[i].category = intern("");
        continue;
      }
      const auto& [launcher, kernel_name] = first_kernel.at(cpu_op);
      const std::uint64_t key =
          (static_cast<std::uint64_t>(g_.ops_[i].op_name) << 32) | kernel_name;
      auto it = category_cache.find(key);
      if (it == category_cache.end()) {
        const std::string category =
            prepare::perf::op_category(g_.str(g_.ops_[i].op_name), g_.str(kernel_name));
        it = category_cache.emplace(key, intern(category)).first;
      }
      g_.ops_[i].category = it->second;
    }
    g_.stream_count_ = stream_ids_.size();
  }

  std::uint32_t host_node_for(Uid u) {
    if (node_of_uid_[u] != kNone) return node_of_uid_[u];
    const trace::Event& e = model_.event(u);
    HostNode h;
    h.start = e.ts_ns;
    h.dur = e.dur_ns;
    h.thread = e.thread;
    h.name = intern(model_.name(u));
    const auto id = static_cast<std::uint32_t>(g_.nodes_.size());
    g_.nodes_.push_back(h);
    node_kind_.push_back(BlockKind::kNone);
    node_of_uid_[u] = id;
    return id;
  }

  // Blocking calls, and the record / wait calls the sweep needs.
  void collect_host_nodes() {
    const auto n = static_cast<Uid>(model_.event_count());
    for (Uid u = 0; u < n; ++u) {
      const trace::Event& e = model_.event(u);
      if (!trace::is_runtime_category(e.category) || !timed(e)) continue;
      const std::string_view name = model_.name(u);
      if (is_event_record(name)) {
        marks_.push_back({e.ts_ns, Mark::kRecord, u});
        continue;
      }
      if (is_stream_wait(name)) {
        marks_.push_back({e.ts_ns, Mark::kWait, u});
        continue;
      }
      BlockKind kind = block_kind(name);
      if (kind == BlockKind::kNone && is_async_copy(name) && node_of_uid_[u] != kNone) {
        kind = BlockKind::kCopy;  // kept only if its copies ended before it returned (below)
      }
      if (kind == BlockKind::kNone) continue;
      const std::uint32_t id = host_node_for(u);
      node_kind_[id] = kind;
    }
    // Ops per launching node, for copies.
    launched_.assign(g_.nodes_.size(), {});
    for (std::uint32_t i = 0; i < g_.ops_.size(); ++i) {
      if (g_.ops_[i].launch != kNone) launched_[g_.ops_[i].launch].push_back(i);
    }
    for (std::uint32_t h = 0; h < g_.nodes_.size(); ++h) {
      if (node_kind_[h] != BlockKind::kCopy) continue;
      const HostNode& node = g_.nodes_[h];
      const std::string_view name = g_.str(node.name);
      if (!is_async_copy(name)) continue;
      // An async copy blocks only when the measured times show it: all its copies ended before
      // the call returned.
      bool waited = !launched_[h].empty();
      for (const std::uint32_t op : launched_[h]) {
        if (g_.ops_[op].start + g_.ops_[op].dur > node.start + node.dur) waited = false;
      }
      if (!waited) node_kind_[h] = BlockKind::kNone;
    }
    for (std::uint32_t h = 0; h < g_.nodes_.size(); ++h) {
      g_.nodes_[h].blocking = node_kind_[h] != BlockKind::kNone;
      if (g_.nodes_[h].blocking) ++g_.stats_.blocking_calls;
    }
  }

  void order_streams() {
    std::vector<std::vector<std::uint32_t>> by_stream(g_.stream_count_);
    for (std::uint32_t i = 0; i < g_.ops_.size(); ++i) by_stream[g_.ops_[i].stream].push_back(i);
    for (auto& list : by_stream) {
      std::sort(list.begin(), list.end(), [&](std::uint32_t a, std::uint32_t b) {
        const GpuOp& x = g_.ops_[a];
        const GpuOp& y = g_.ops_[b];
        return x.start != y.start ? x.start < y.start : x.uid < y.uid;
      });
      std::int64_t max_end = std::numeric_limits<std::int64_t>::min();
      for (std::size_t k = 0; k < list.size(); ++k) {
        GpuOp& op = g_.ops_[list[k]];
        if (k > 0) op.stream_prev = list[k - 1];
        if (k > 0 && op.start < max_end) {
          op.unresolved = true;
          ++g_.stats_.overlapping_ops;
        }
        max_end = std::max(max_end, op.start + op.dur);
      }
    }
    stream_pos_.assign(g_.ops_.size(), 0);
    for (const auto& list : by_stream) {
      for (std::uint32_t k = 0; k < list.size(); ++k) stream_pos_[list[k]] = k;
    }
    stream_ops_ = std::move(by_stream);
    for (GpuOp& op : g_.ops_) {
      if (op.launch == kNone) {
        op.unresolved = true;
        ++g_.stats_.unlinked_ops;
      }
      ++g_.stats_.gpu_ops;
      g_.stats_.op_ns += op.dur;
      if (op.unresolved) g_.stats_.unresolved_ns += op.dur;
    }
  }

  // The last blocking call of `thread` that ended at or before `time` (host nodes sorted).
  std::uint32_t prior_block(std::uint32_t thread, std::int64_t time) const {
    const auto it = blocks_by_thread_.find(thread);
    if (it == blocks_by_thread_.end()) return kNone;
    const auto& ends = it->second;  // (end, node), sorted by end
    auto pos =
        std::upper_bound(ends.begin(), ends.end(), time,
                         [](std::int64_t t, const std::pair<std::int64_t, std::uint32_t>& p) {
                           return t < p.first;
                         });
    if (pos == ends.begin()) return kNone;
    return std::prev(pos)->second;
  }

  void thread_chains() {
    for (std::uint32_t h = 0; h < g_.nodes_.size(); ++h) {
      const HostNode& node = g_.nodes_[h];
      if (node.blocking) blocks_by_thread_[node.thread].emplace_back(node.start + node.dur, h);
    }
    for (auto& [thread, ends] : blocks_by_thread_) std::sort(ends.begin(), ends.end());
    for (HostNode& node : g_.nodes_) node.prior_block = prior_block(node.thread, node.start);
  }

  // One pass over host time: which op each blocking call and each stream wait depends on.
  void sweep_waits() {
    for (std::uint32_t i = 0; i < g_.ops_.size(); ++i) {
      const GpuOp& op = g_.ops_[i];
      const std::int64_t t = op.launch != kNone ? g_.nodes_[op.launch].start : op.start;
      marks_.push_back({t, Mark::kEnqueue, i});
    }
    for (std::uint32_t h = 0; h < g_.nodes_.size(); ++h) {
      if (g_.nodes_[h].blocking) marks_.push_back({g_.nodes_[h].start, Mark::kBlock, h});
    }
    std::sort(marks_.begin(), marks_.end(), [&](const Mark& a, const Mark& b) {
      if (a.time != b.time) return a.time < b.time;
      if (a.kind != b.kind) return a.kind < b.kind;
      return a.index < b.index;
    });
    std::vector<std::uint32_t> last_enqueued(g_.stream_count_, kNone);
    std::unordered_map<std::uint32_t, std::uint32_t> thread_stream;  // thread -> last stream
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> recorded;  // thread -> snapshot
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> pending;   // thread -> waits
    std::vector<std::pair<std::uint32_t, std::uint32_t>> op_waits, host_waits;
    const auto snapshot = [&] {
      std::vector<std::uint32_t> s;
      for (const std::uint32_t op : last_enqueued) {
        if (op != kNone) s.push_back(op);
      }
      return s;
    };
    for (const Mark& m : marks_) {
      switch (m.kind) {
        case Mark::kEnqueue: {
          const GpuOp& op = g_.ops_[m.index];
          last_enqueued[op.stream] = m.index;
          if (op.launch == kNone) break;
          const std::uint32_t thread = g_.nodes_[op.launch].thread;
          thread_stream[thread] = op.stream;
          const auto p = pending.find(thread);
          if (p == pending.end()) break;
          for (const std::uint32_t w : p->second) {
            const GpuOp& waited = g_.ops_[w];
            // Only a wait the measured times allow: the op started after the waited op ended.
            if (waited.stream != op.stream && waited.start + waited.dur <= op.start) {
              op_waits.emplace_back(m.index, w);
            }
          }
          pending.erase(p);
          break;
        }
        case Mark::kRecord:
          recorded[model_.event(m.index).thread] = snapshot();
          break;
        case Mark::kWait: {
          const std::uint32_t thread = model_.event(m.index).thread;
          const auto r = recorded.find(thread);
          if (r != recorded.end()) {
            pending[thread] = std::move(r->second);
            recorded.erase(r);
          } else {
            pending[thread] = snapshot();
          }
          break;
        }
        case Mark::kBlock: {
          const HostNode& node = g_.nodes_[m.index];
          const std::int64_t end = node.start + node.dur;
          std::vector<std::uint32_t> candidates;
          switch (node_kind_[m.index]) {
            case BlockKind::kCopy:
              candidates = launched_[m.index];
              break;
            case BlockKind::kStreamSync: {
              const auto s = thread_stream.find(node.thread);
              if (s != thread_stream.end()) {
                const std::uint32_t op = sync_target(s->second, last_enqueued[s->second], end);
                if (op != kNone) candidates.push_back(op);
                break;
              }
              [[fallthrough]];
            }
            case BlockKind::kDeviceSync:
            case BlockKind::kNone:
              for (std::uint32_t stream = 0; stream < g_.stream_count_; ++stream) {
                const std::uint32_t op = sync_target(stream, last_enqueued[stream], end);
                if (op != kNone) candidates.push_back(op);
              }
              break;
          }
          for (const std::uint32_t op : candidates) {
            const GpuOp& w = g_.ops_[op];
            if (w.start + w.dur <= end) host_waits.emplace_back(m.index, op);
          }
          break;
        }
      }
    }
    marks_.clear();
    marks_.shrink_to_fit();
    g_.stats_.event_waits = op_waits.size();
    // CSR by waiter.
    std::sort(op_waits.begin(), op_waits.end());
    std::sort(host_waits.begin(), host_waits.end());
    std::uint32_t k = 0;
    for (std::uint32_t i = 0; i < g_.ops_.size(); ++i) {
      g_.ops_[i].waits_begin = static_cast<std::uint32_t>(g_.op_waits_.size());
      for (; k < op_waits.size() && op_waits[k].first == i; ++k) {
        g_.op_waits_.push_back({op_waits[k].second, 0});
      }
      g_.ops_[i].waits_end = static_cast<std::uint32_t>(g_.op_waits_.size());
    }
    k = 0;
    for (std::uint32_t h = 0; h < g_.nodes_.size(); ++h) {
      g_.nodes_[h].waits_begin = static_cast<std::uint32_t>(g_.host_waits_.size());
      for (; k < host_waits.size() && host_waits[k].first == h; ++k) {
        g_.host_waits_.push_back({host_waits[k].second, 0});
      }
      g_.nodes_[h].waits_end = static_cast<std::uint32_t>(g_.host_waits_.size());
    }
  }

  std::int64_t op_end(std::uint32_t op) const { return g_.ops_[op].start + g_.ops_[op].dur; }

  // What a sync returning at `end` waited for on `stream`: the last op enqueued before it
  // started, or a later op with no launch (its enqueue time is unknown) that ended before the
  // sync returned: ops in flight when the profiler started have no launch in the trace.
  std::uint32_t sync_target(std::uint32_t stream, std::uint32_t enqueued, std::int64_t end) const {
    const auto& list = stream_ops_[stream];
    auto it =
        std::upper_bound(list.begin(), list.end(), end,
                         [&](std::int64_t t, std::uint32_t op) { return t < g_.ops_[op].start; });
    for (int steps = 0; it != list.begin() && steps < 64; ++steps) {
      const std::uint32_t op = *std::prev(it);
      if (enqueued != kNone && stream_pos_[op] <= stream_pos_[enqueued]) break;
      if (op_end(op) <= end && g_.ops_[op].launch == kNone) return op;
      --it;
    }
    return enqueued;
  }

  // Edge latencies (docs/what-if.md, "Calibration"): the edge that decided a measured start or
  // end keeps exactly the measured gap; every other edge gets the trace's typical latency of
  // its kind, or its measured gap when that is smaller. Replaying without a change therefore
  // reproduces every measured time, and a changed op moves its successors only as far as
  // their other dependencies allow.
  void calibrate() {
    std::vector<std::int64_t> launch_samples, queue_samples, return_samples, own_samples;
    for (const GpuOp& op : g_.ops_) {
      if (op.launch == kNone || op.unresolved) continue;
      const std::int64_t ls = g_.nodes_[op.launch].start;
      if (op.stream_prev == kNone || op_end(op.stream_prev) <= ls) {
        if (op.waits_begin == op.waits_end) launch_samples.push_back(op.start - ls);
      } else {
        queue_samples.push_back(op.start - op_end(op.stream_prev));
      }
    }
    for (const HostNode& node : g_.nodes_) {
      if (!node.blocking) continue;
      std::int64_t last = std::numeric_limits<std::int64_t>::min();
      for (std::uint32_t k = node.waits_begin; k < node.waits_end; ++k) {
        last = std::max(last, op_end(g_.host_waits_[k].op));
      }
      if (last > node.start) {
        return_samples.push_back(node.start + node.dur - last);
      } else {
        own_samples.push_back(node.dur);
      }
    }
    const std::int64_t launch_typ = median(launch_samples, 0);
    const std::int64_t queue_typ = std::max<std::int64_t>(0, median(queue_samples, 0));
    const std::int64_t return_typ = std::max<std::int64_t>(0, median(return_samples, 0));
    const std::int64_t own_typ = std::max<std::int64_t>(0, median(own_samples, 0));
    g_.stats_.launch_latency_ns = launch_typ;
    g_.stats_.queue_latency_ns = queue_typ;

    for (GpuOp& op : g_.ops_) {
      // Candidates: value = anchor + min(gap, typical); the largest decides.
      std::int64_t best = std::numeric_limits<std::int64_t>::min();
      int best_edge = -1;  // 0 launch, 1 stream, 2+k wait k
      std::int64_t launch_gap = 0, stream_gap = 0;
      if (op.launch != kNone) {
        const std::int64_t anchor = g_.nodes_[op.launch].start;
        launch_gap = op.start - anchor;
        op.launch_latency = std::min(launch_gap, launch_typ);
        if (anchor + op.launch_latency > best) {
          best = anchor + op.launch_latency;
          best_edge = 0;
        }
      }
      if (op.stream_prev != kNone) {
        const std::int64_t anchor = op_end(op.stream_prev);
        stream_gap = op.start - anchor;
        op.stream_latency = std::min(stream_gap, queue_typ);
        if (anchor + op.stream_latency >= best) {
          best = anchor + op.stream_latency;
          best_edge = 1;
        }
      }
      for (std::uint32_t k = op.waits_begin; k < op.waits_end; ++k) {
        WaitEdge& w = g_.op_waits_[k];
        const std::int64_t anchor = op_end(w.op);
        w.latency = std::min(op.start - anchor, queue_typ);
        if (anchor + w.latency >= best) {
          best = anchor + w.latency;
          best_edge = 2 + static_cast<int>(k - op.waits_begin);
        }
      }
      if (best_edge == 0) op.launch_latency = launch_gap;
      if (best_edge == 1) op.stream_latency = stream_gap;
      if (best_edge >= 2) {
        WaitEdge& w = g_.op_waits_[op.waits_begin + static_cast<std::uint32_t>(best_edge - 2)];
        w.latency = op.start - op_end(w.op);
      }
    }
    for (HostNode& node : g_.nodes_) {
      if (!node.blocking) continue;
      node.own_latency = std::min(node.dur, own_typ);
      std::int64_t best = node.start + node.own_latency;
      std::int64_t best_k = -1;
      const std::int64_t end = node.start + node.dur;
      for (std::uint32_t k = node.waits_begin; k < node.waits_end; ++k) {
        WaitEdge& w = g_.host_waits_[k];
        const std::int64_t anchor = op_end(w.op);
        w.latency = std::min(end - anchor, return_typ);
        if (anchor + w.latency >= best) {
          best = anchor + w.latency;
          best_k = k;
        }
      }
      if (best_k < 0) {
        node.own_latency = node.dur;
      } else {
        WaitEdge& w = g_.host_waits_[static_cast<std::size_t>(best_k)];
        w.latency = end - op_end(w.op);
      }
    }
  }

  // Kahn's order over ops and host nodes; nodes on a cycle (timestamps that contradict the
  // dependencies) are appended in measured order.
  void evaluation_order() {
    const auto nops = static_cast<std::uint32_t>(g_.ops_.size());
    const auto nh = static_cast<std::uint32_t>(g_.nodes_.size());
    const auto total = nops + 2 * nh;
    std::vector<std::uint32_t> indegree(total, 0);
    std::vector<std::uint32_t> offsets(static_cast<std::size_t>(total) + 1, 0);
    const auto for_each_edge = [&](auto&& f) {  // f(pred, succ)
      for (std::uint32_t i = 0; i < nops; ++i) {
        const GpuOp& op = g_.ops_[i];
        if (op.launch != kNone) f(nops + op.launch, i);
        if (op.stream_prev != kNone) f(op.stream_prev, i);
        for (std::uint32_t k = op.waits_begin; k < op.waits_end; ++k) f(g_.op_waits_[k].op, i);
      }
      for (std::uint32_t h = 0; h < nh; ++h) {
        const HostNode& node = g_.nodes_[h];
        if (node.prior_block != kNone) f(nops + nh + node.prior_block, nops + h);
        f(nops + h, nops + nh + h);
        for (std::uint32_t k = node.waits_begin; k < node.waits_end; ++k) {
          f(g_.host_waits_[k].op, nops + nh + h);
        }
      }
    };
    for_each_edge([&](std::uint32_t p, std::uint32_t s) {
      ++offsets[p + 1];
      ++indegree[s];
    });
    for (std::size_t i = 1; i < offsets.size(); ++i) offsets[i] += offsets[i - 1];
    std::vector<std::uint32_t> succ(offsets.back());
    std::vector<std::uint32_t> fill(offsets.begin(), offsets.end() - 1);
    for_each_edge([&](std::uint32_t p, std::uint32_t s) { succ[fill[p]++] = s; });
    fill = {};
    std::deque<std::uint32_t> ready;
    for (std::uint32_t v = 0; v < total; ++v) {
      if (indegree[v] == 0) ready.push_back(v);
    }
    g_.order_.reserve(total);
    std::vector<std::uint8_t> done(total, 0);
    while (!ready.empty()) {
      const std::uint32_t v = ready.front();
      ready.pop_front();
      g_.order_.push_back(v);
      done[v] = 1;
      for (std::uint32_t k = offsets[v]; k < offsets[v + 1]; ++k) {
        if (--indegree[succ[k]] == 0) ready.push_back(succ[k]);
      }
    }
    if (g_.order_.size() < total) {
      std::vector<std::uint32_t> rest;
      for (std::uint32_t v = 0; v < total; ++v) {
        if (done[v] == 0) rest.push_back(v);
      }
      const auto start_of = [&](std::uint32_t v) {
        if (v < nops) return g_.ops_[v].start;
        const HostNode& node = g_.nodes_[(v - nops) % nh];
        return v < nops + nh ? node.start : node.start + node.dur;
      };
      std::stable_sort(rest.begin(), rest.end(),
                       [&](std::uint32_t a, std::uint32_t b) { return start_of(a) < start_of(b); });
      g_.stats_.cyclic_nodes = rest.size();
      for (const std::uint32_t v : rest) {
        g_.order_.push_back(v);
        if (v < nops && !g_.ops_[v].unresolved) {
          g_.ops_[v].unresolved = true;
          g_.stats_.unresolved_ns += g_.ops_[v].dur;
        }
      }
    }
  }

  void build_steps() {
    struct Found {
      Uid uid;
      std::int64_t start, end;
    };
    std::vector<Found> profiler, serving;
    const auto n = static_cast<Uid>(model_.event_count());
    for (Uid u = 0; u < n; ++u) {
      const trace::Event& e = model_.event(u);
      if (e.category != trace::Category::kUserAnnotation || !timed(e)) continue;
      const std::string_view name = model_.name(u);
      if (name.starts_with("ProfilerStep#")) {
        profiler.push_back({u, e.ts_ns, e.ts_ns + e.dur_ns});
      } else if (trace::parse_step_label(name)) {
        serving.push_back({u, e.ts_ns, e.ts_ns + e.dur_ns});
      }
    }
    std::vector<Found>* chosen = nullptr;
    if (!profiler.empty()) {
      chosen = &profiler;
      g_.step_source_ = StepSource::kProfilerStep;
    } else if (!serving.empty()) {
      chosen = &serving;
      g_.step_source_ = StepSource::kServingLabel;
    }
    // Enqueue time of every op, sorted, to hand ops to steps.
    std::vector<std::pair<std::int64_t, std::uint32_t>> enqueue;
    enqueue.reserve(g_.ops_.size());
    for (std::uint32_t i = 0; i < g_.ops_.size(); ++i) {
      const GpuOp& op = g_.ops_[i];
      enqueue.emplace_back(op.launch != kNone ? g_.nodes_[op.launch].start : op.start, i);
    }
    std::sort(enqueue.begin(), enqueue.end());
    if (chosen == nullptr) {
      Step s;
      s.name = "whole trace";
      s.anchored = false;
      std::int64_t first = std::numeric_limits<std::int64_t>::max();
      for (const GpuOp& op : g_.ops_) first = std::min(first, op.start);
      for (const HostNode& node : g_.nodes_) first = std::min(first, node.start);
      if (first == std::numeric_limits<std::int64_t>::max()) first = 0;
      s.start = {first, kNone};
      s.end = {first, kNone};
      s.ops_begin = 0;
      for (const auto& [t, i] : enqueue) g_.step_ops_.push_back(i);
      s.ops_end = static_cast<std::uint32_t>(g_.step_ops_.size());
      g_.steps_.push_back(std::move(s));
      return;
    }
    std::stable_sort(chosen->begin(), chosen->end(),
                     [](const Found& a, const Found& b) { return a.start < b.start; });
    std::size_t k = 0;
    std::int64_t kept_end = std::numeric_limits<std::int64_t>::min();
    for (const Found& f : *chosen) {
      if (f.start < kept_end) continue;  // nested or overlapping: the outer one is the step
      kept_end = f.end;
      const std::uint32_t thread = model_.event(f.uid).thread;
      Step s;
      s.name = std::string(model_.name(f.uid));
      s.start = {f.start, prior_block(thread, f.start)};
      s.end = {f.end, prior_block(thread, f.end)};
      while (k < enqueue.size() && enqueue[k].first < f.start) ++k;
      s.ops_begin = static_cast<std::uint32_t>(g_.step_ops_.size());
      for (; k < enqueue.size() && enqueue[k].first < f.end; ++k) {
        g_.step_ops_.push_back(enqueue[k].second);
      }
      s.ops_end = static_cast<std::uint32_t>(g_.step_ops_.size());
      g_.steps_.push_back(std::move(s));
    }
  }

  void measure_steps() {
    const auto& steps = g_.steps_;
    std::vector<std::int64_t> ends(steps.size());
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const Step& s = steps[i];
      std::int64_t e = s.anchored ? s.end.time : s.start.time;
      for (std::uint32_t k = s.ops_begin; k < s.ops_end; ++k) {
        e = std::max(e, op_end(g_.step_ops_[k]));
      }
      if (!s.anchored) {
        for (const HostNode& node : g_.nodes_) e = std::max(e, node.start + node.dur);
      }
      ends[i] = e;
    }
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const std::int64_t end =
          i + 1 < steps.size() ? std::min(ends[i], steps[i + 1].start.time) : ends[i];
      g_.measured_steps_.push_back(end - steps[i].start.time);
    }
    g_.measured_total_ = steps.empty() ? 0 : ends.back() - steps.front().start.time;
  }

  struct Mark {
    enum Kind : std::uint8_t { kEnqueue, kRecord, kWait, kBlock };
    std::int64_t time;
    Kind kind;
    std::uint32_t index;  // op (enqueue), event uid (record, wait), host node (block)
  };

  const trace::TraceModel& model_;
  const trace::EventTree& tree_;
  RunGraph& g_;
  std::unordered_map<std::string, std::uint32_t> string_ids_;
  std::unordered_map<StreamKey, std::uint32_t, StreamKeyHash> stream_ids_;
  std::vector<std::uint32_t> node_of_uid_;
  std::vector<BlockKind> node_kind_;
  std::vector<std::vector<std::uint32_t>> launched_;
  std::vector<Mark> marks_;
  std::vector<std::vector<std::uint32_t>> stream_ops_;  // ops of each stream, in stream order
  std::vector<std::uint32_t> stream_pos_;               // an op's position in its stream
  std::unordered_map<std::uint32_t, std::vector<std::pair<std::int64_t, std::uint32_t>>>
      blocks_by_thread_;
};

RunGraph RunGraph::build(const trace::TraceModel& model, const trace::EventTree& tree) {
  RunGraph g;
  RunGraphBuilder(model, tree, g).build();
  const Prediction identity = simulate(g, {});
  for (const StepPrediction& s : identity.steps) g.identity_steps_.push_back(s.predicted_ns);
  g.identity_total_ = identity.predicted_total_ns;
  return g;
}

}  // namespace loupe::core::whatif
