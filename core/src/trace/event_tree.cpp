#include "loupe/core/trace/event_tree.hpp"

#include <algorithm>
#include <cctype>
#include <future>

#include "stable_sort_runs.hpp"

namespace loupe::core::trace {

namespace {

bool is_host(Category c, bool add_python_func) {
  return c == Category::kCpuOp || is_runtime_category(c) ||
         (add_python_func && c == Category::kPythonFunction);
}

bool is_nn_module_frame(const TraceModel& m, Uid u) {
  return m.event(u).category == Category::kPythonFunction && m.name(u).starts_with("nn.Module:");
}

// "nn.Module: Linear_0" -> "nn.Module: Linear" (only a final _<digits> suffix).
std::string strip_instance_suffix(std::string_view name) {
  std::size_t i = name.size();
  while (i > 0 && std::isdigit(static_cast<unsigned char>(name[i - 1])) != 0) --i;
  if (i < name.size() && i > 0 && name[i - 1] == '_') return std::string(name.substr(0, i - 1));
  return std::string(name);
}

bool contains_launch(std::string_view name) {
  std::string lower(name);
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.find("launch") != std::string::npos;
}

}  // namespace

std::uint32_t EventTree::nn_child(std::uint32_t parent, std::string name) {
  std::string key = std::to_string(parent) + '\x1f' + name;
  const auto it = nn_frame_index_.find(key);
  if (it != nn_frame_index_.end()) return it->second;
  const auto id = static_cast<std::uint32_t>(nn_frames_.size());
  nn_frames_.push_back(NnFrame{parent, std::move(name)});
  nn_frame_index_.emplace(std::move(key), id);
  return id;
}

template <typename Time>
void EventTree::build_host_tree(const TraceModel& model,
                                std::vector<std::pair<Uid, Uid>>& host_edges) {
  using V = typename Time::Value;
  struct Host {
    V start;
    V end;
    Uid uid;
  };
  std::vector<Host> hosts;
  const auto n = static_cast<Uid>(model.event_count());
  for (Uid u = 0; u < n; ++u) {
    const Event& e = model.event(u);
    if (!is_host(e.category, options_.add_python_func)) continue;
    if ((e.flags & kHasTs) == 0 || (e.flags & kHasDur) == 0 || e.thread == kNoIndex) {
      ++stats_.host_without_time;
      continue;
    }
    hosts.push_back(Host{Time::start(model, u), Time::end(model, u), u});
  }
  // (ts, UID): a stable sort by ts of UID-ordered events, which come in a few runs (threads).
  stable_sort_runs(hosts, [](const Host& a, const Host& b) { return a.start < b.start; });
  stats_.host_events = hosts.size();

  struct ThreadState {
    std::vector<std::uint32_t> stack;  // indexes into hosts
    std::vector<std::uint32_t> nn;     // nn frame ids, back = current
    std::uint32_t cpu_ops = 0;
  };
  std::vector<ThreadState> threads(model.threads().size());
  for (auto& t : threads) t.nn.push_back(0);

  const auto pop = [&](ThreadState& st) {
    const Uid top = hosts[st.stack.back()].uid;
    st.stack.pop_back();
    if (model.event(top).category == Category::kCpuOp) --st.cpu_ops;
    if (is_nn_module_frame(model, top)) st.nn.pop_back();
  };

  for (std::uint32_t i = 0; i < hosts.size(); ++i) {
    const Host& h = hosts[i];
    const Event& e = model.event(h.uid);
    ThreadState& st = threads[e.thread];
    flags_[h.uid] |= kLinked;
    while (!st.stack.empty() && h.start >= hosts[st.stack.back()].end) pop(st);
    if (!st.stack.empty() && h.end > hosts[st.stack.back()].end) {
      const V overlap = hosts[st.stack.back()].end - h.start;
      if (overlap < Time::one_us && st.stack.size() >= 2) {
        pop(st);
        ++stats_.reparented_by_bleed;
      } else {
        flags_[h.uid] |= kDropped;
        ++stats_.dropped_by_bleed;
        continue;
      }
    }
    nn_stack_[h.uid] = st.nn.back();
    if (!st.stack.empty()) {
      const Uid p = hosts[st.stack.back()].uid;
      parent_[h.uid] = p;
      host_edges.emplace_back(p, h.uid);
    }
    st.stack.push_back(i);
    if (is_nn_module_frame(model, h.uid)) {
      st.nn.push_back(nn_child(st.nn.back(), strip_instance_suffix(model.name(h.uid))));
    }
    if (e.category == Category::kCpuOp) {
      if (st.cpu_ops == 0) {
        flags_[h.uid] |= kCpuOpRoot;
        cpu_roots_.push_back(h.uid);
      }
      ++st.cpu_ops;
    }
  }
  stats_.cpu_roots = cpu_roots_.size();
}

struct EventTree::GpuLinks {
  struct ThreadLinkHash {
    std::size_t operator()(const std::pair<std::uint32_t, std::int64_t>& p) const {
      // Unsigned arithmetic: an External id near INT64_MAX must wrap, not overflow.
      return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(p.second) * 1000003u + p.first);
    }
  };
  std::vector<Uid> runtime_uids;
  std::unordered_map<std::int64_t, Uid> flow_start, flow_end;
  std::unordered_map<std::int64_t, std::vector<Uid>> gpu_by_link;
  std::unordered_map<std::pair<std::uint32_t, std::int64_t>, Uid, ThreadLinkHash> by_thread_link;
};

std::int64_t EventTree::link_of(const std::optional<EventDetail>& d) const {
  if (!d) return kNoValue;
  return linking_key_ == LinkingKey::kCorrelation ? d->correlation : d->external_id;
}

EventTree::GpuLinks EventTree::index_gpu_links(const TraceModel& model) {
  const auto n = static_cast<Uid>(model.event_count());
  // §2.3 linking key: the first runtime event whose name contains "launch".
  linking_key_ = LinkingKey::kExternalId;
  for (Uid u = 0; u < n; ++u) {
    const Event& e = model.event(u);
    if (is_runtime_category(e.category) && contains_launch(model.name(u))) {
      const auto d = model.detail(u);
      if (d && d->correlation != kNoValue) linking_key_ = LinkingKey::kCorrelation;
      break;
    }
  }
  // §2.4 indexes.
  GpuLinks links;
  for (Uid u = 0; u < n; ++u) {
    const Event& e = model.event(u);
    if (is_runtime_category(e.category)) links.runtime_uids.push_back(u);
    if (is_gpu_category(e.category)) ++stats_.gpu_ops;
    if (e.category == Category::kAc2g) {
      const auto d = model.detail(u);
      if (!d || d->flow_id == kNoValue) {
        ++stats_.flows_without_id;
        continue;
      }
      if (e.phase == Phase::kFlowStart) links.flow_start[d->flow_id] = u;
      if (e.phase == Phase::kFlowEnd) links.flow_end[d->flow_id] = u;
      continue;
    }
    if ((e.flags & kHasArgs) == 0) continue;
    const std::int64_t link = link_of(model.detail(u));
    if (link == kNoValue) continue;
    if (is_gpu_category(e.category)) {
      links.gpu_by_link[link].push_back(u);
      if (e.thread != kNoIndex) links.by_thread_link[{e.thread, link}] = u;
    }
  }
  stats_.runtime_calls = links.runtime_uids.size();
  return links;
}

void EventTree::attach_gpu_ops(const TraceModel& model, const GpuLinks& links,
                               std::vector<std::pair<Uid, Uid>>& gpu_edges) {
  const auto n = static_cast<Uid>(model.event_count());
  const auto& [runtime_uids, flow_start, flow_end, gpu_by_link, by_thread_link] = links;
  // §2.6 attach, in runtime UID order.
  std::vector<Uid> found;
  for (const Uid r : runtime_uids) {
    found.clear();
    const std::int64_t link = link_of(model.detail(r));
    const std::string_view name = model.name(r);
    if (name == "cudaGraphLaunch" || name == "hipGraphLaunch") {
      if (link != kNoValue) {
        const auto it = gpu_by_link.find(link);
        if (it != gpu_by_link.end()) found = it->second;
      }
      if (found.empty()) ++stats_.graph_launches_without_kernels;
    } else if (link != kNoValue) {
      const auto s = flow_start.find(link);
      const auto f = flow_end.find(link);
      if (s != flow_start.end() && f != flow_end.end()) {
        const Event& fe = model.event(f->second);
        const auto g =
            fe.thread == kNoIndex ? by_thread_link.end() : by_thread_link.find({fe.thread, link});
        if (g != by_thread_link.end()) {
          found.push_back(g->second);
        } else {
          ++stats_.flows_ending_off_gpu;
        }
      }
      if (s != flow_start.end() && found.empty()) ++stats_.launches_without_gpu_op;
    }
    for (const Uid g : found) {
      if (linked(g)) ++stats_.gpu_linked_twice;
      gpu_edges.emplace_back(r, g);
      parent_[g] = r;
      flags_[g] |= kLinked;
      for (Uid a = r; a != kNoUid; a = parent_[a]) {
        flags_[a] |= kHasGpu;
      }
    }
  }
  relink_gpu_ops(model, gpu_edges);
  for (Uid u = 0; u < n; ++u) {
    if (is_gpu_category(model.event(u).category) && linked(u)) ++stats_.gpu_linked;
  }
}

void EventTree::relink_gpu_ops(const TraceModel& model,
                               std::vector<std::pair<Uid, Uid>>& gpu_edges) {
  if (options_.gpu_relinks.empty()) return;
  const auto n = static_cast<Uid>(model.event_count());
  std::unordered_map<Uid, Uid> runtime_of;
  for (const auto& [r, g] : options_.gpu_relinks) {
    if (r >= n || g >= n || !is_runtime_category(model.event(r).category) ||
        !is_gpu_category(model.event(g).category)) {
      continue;
    }
    runtime_of[g] = r;
  }
  std::erase_if(gpu_edges,
                [&](const std::pair<Uid, Uid>& e) { return runtime_of.contains(e.second); });
  for (const auto& [r, g] : options_.gpu_relinks) {
    const auto it = runtime_of.find(g);
    if (it == runtime_of.end() || it->second != r) continue;
    if (parent_[g] != kNoUid) relinked_from_.emplace(g, parent_[g]);
    gpu_edges.emplace_back(r, g);
    parent_[g] = r;
    flags_[g] |= kLinked;
    for (Uid a = r; a != kNoUid; a = parent_[a]) flags_[a] |= kHasGpu;
  }
}

template <typename Time>
void EventTree::link_fwd_bwd(const TraceModel& model) {
  using V = typename Time::Value;
  std::vector<std::int64_t> order;
  std::unordered_map<std::int64_t, std::vector<Uid>> seq_index;
  const auto n = static_cast<Uid>(model.event_count());
  for (Uid u = 0; u < n; ++u) {
    const Event& e = model.event(u);
    if (e.category == Category::kAc2g || (e.flags & kHasArgs) == 0) continue;
    const auto d = model.detail(u);
    if (!d || d->sequence == kNoValue) continue;
    auto& list = seq_index[d->sequence];
    if (list.empty()) order.push_back(d->sequence);
    list.push_back(u);
  }
  constexpr std::string_view kWrapper = "autograd::engine::evaluate_function:";
  for (const std::int64_t seq : order) {
    const auto& uids = seq_index[seq];
    Uid b = kNoUid;
    for (const Uid u : uids) {
      if (model.name(u).starts_with(kWrapper)) {
        b = u;
        break;
      }
    }
    if (b == kNoUid) continue;
    const std::uint32_t b_thread = model.event(b).thread;
    Uid f = kNoUid;
    V best = static_cast<V>(-Time::one_us);  // TraceLens starts from -1 us
    for (const Uid u : uids) {
      const Event& e = model.event(u);
      if (e.thread == b_thread || (e.flags & kHasTs) == 0) continue;
      const V ts = Time::start(model, u);
      if (ts > best) {
        best = ts;
        f = u;
      }
    }
    if (f == kNoUid) continue;
    fwd_event_[b] = f;
    bwd_events_[f].push_back(b);
    ++stats_.fwd_bwd_links;
  }
}

EventTree EventTree::build(const TraceModel& model, const TreeOptions& options) {
  EventTree t;
  t.options_ = options;
  const auto n = static_cast<Uid>(model.event_count());
  t.parent_.assign(n, kNoUid);
  t.flags_.assign(n, 0);
  t.nn_stack_.assign(n, kNoIndex);
  t.nn_frames_.push_back(NnFrame{kNoIndex, "root"});
  for (Uid u = 0; u < n; ++u) {
    if (is_gpu_category(model.event(u).category)) t.flags_[u] |= kGpuCategory;
  }
  std::vector<std::pair<Uid, Uid>> host_edges, gpu_edges;
  // The GPU links' indexes and the forward/backward links read the model only (each writes its
  // own members and TreeStats fields): built on a second thread while the host tree is
  // (docs/performance.md, "Big traces"). If the host tree throws, the future's destructor waits.
  auto model_only = std::async(
      std::launch::async, [&t, &model, compat = options.time_mode == TimeMode::kTraceLensCompat] {
        GpuLinks links = t.index_gpu_links(model);
        if (compat) {
          t.link_fwd_bwd<CompatTime>(model);
        } else {
          t.link_fwd_bwd<ExactTime>(model);
        }
        return links;
      });
  if (options.time_mode == TimeMode::kTraceLensCompat) {
    t.build_host_tree<CompatTime>(model, host_edges);
  } else {
    t.build_host_tree<ExactTime>(model, host_edges);
  }
  const GpuLinks links = model_only.get();
  t.attach_gpu_ops(model, links, gpu_edges);
  t.gpu_only_ = model.events_in_category(Category::kCpuOp) == 0 &&
                model.events_with_cat_string("python_func") == 0;
  if (!options.annotate_op_prefixes.empty() || !options.serving_annotate_op_prefixes.empty()) {
    t.annotate_ops(model);
  }

  // Children CSR: host children (processing order) then GPU children (link order).
  t.built_nodes_ = n;
  t.child_offsets_.assign(static_cast<std::size_t>(n) + 1, 0);
  for (const auto& [p, c] : host_edges) ++t.child_offsets_[p + 1];
  for (const auto& [p, c] : gpu_edges) ++t.child_offsets_[p + 1];
  for (std::size_t i = 1; i < t.child_offsets_.size(); ++i)
    t.child_offsets_[i] += t.child_offsets_[i - 1];
  t.child_list_.assign(t.child_offsets_.back(), kNoUid);
  t.child_edge_seq_.assign(t.child_offsets_.back(), kNoIndex);
  std::vector<std::uint32_t> fill(t.child_offsets_.begin(), t.child_offsets_.end() - 1);
  for (const auto& [p, c] : host_edges) t.child_list_[fill[p]++] = c;
  for (std::uint32_t k = 0; k < gpu_edges.size(); ++k) {
    const auto [p, c] = gpu_edges[k];
    t.child_edge_seq_[fill[p]] = k;
    t.child_list_[fill[p]++] = c;
  }
  return t;
}

bool EventTree::non_gpu_path(Uid uid) const {
  return (flags_[uid] & kGpuCategory) == 0 && (flags_[uid] & kHasGpu) == 0;
}

std::vector<std::string> EventTree::nn_module_stack(Uid uid) const {
  std::vector<std::string> out;
  std::uint32_t id = nn_stack_[uid];
  if (id == kNoIndex) return out;
  if (id == 0) return {"root"};
  for (; id != 0; id = nn_frames_[id].parent) out.push_back(nn_frames_[id].name);
  std::reverse(out.begin(), out.end());
  return out;
}

Uid EventTree::fwd_event(Uid uid) const {
  const auto it = fwd_event_.find(uid);
  return it == fwd_event_.end() ? kNoUid : it->second;
}

const std::vector<Uid>& EventTree::bwd_events(Uid uid) const {
  static const std::vector<Uid> kEmpty;
  const auto it = bwd_events_.find(uid);
  return it == bwd_events_.end() ? kEmpty : it->second;
}

std::vector<Uid> EventTree::gpu_events(Uid uid) const {
  if ((flags_[uid] & kHasGpu) == 0) return {};
  std::vector<std::pair<std::uint32_t, Uid>> found;
  std::vector<Uid> todo{uid};
  while (!todo.empty()) {
    const Uid u = todo.back();
    todo.pop_back();
    const auto [begin, end] = child_range(u);
    for (std::uint32_t k = begin; k < end; ++k) {
      if (child_edge_seq_[k] != kNoIndex) {
        found.emplace_back(child_edge_seq_[k], child_list_[k]);
      } else if ((flags_[child_list_[k]] & kHasGpu) != 0) {
        todo.push_back(child_list_[k]);
      }
    }
  }
  std::sort(found.begin(), found.end());
  std::vector<Uid> out;
  out.reserve(found.size());
  for (const auto& [seq, g] : found) out.push_back(g);
  return out;
}

std::vector<std::pair<Uid, std::uint32_t>> EventTree::child_entries(Uid uid) const {
  const auto [begin, end] = child_range(uid);
  std::vector<std::pair<Uid, std::uint32_t>> out;
  out.reserve(end - begin);
  for (std::uint32_t k = begin; k < end; ++k) out.emplace_back(child_list_[k], child_edge_seq_[k]);
  return out;
}

void EventTree::set_children(Uid uid, const std::vector<std::pair<Uid, std::uint32_t>>& children) {
  const auto begin = static_cast<std::uint32_t>(child_list_.size());
  for (const auto& [child, seq] : children) {
    child_list_.push_back(child);
    child_edge_seq_.push_back(seq);
  }
  edited_children_[uid] = {begin, static_cast<std::uint32_t>(child_list_.size())};
  flags_[uid] |= kEdited;
}

void EventTree::mark_gpu_child(Uid parent, Uid child) {
  if ((flags_[child] & (kGpuCategory | kHasGpu)) != 0) flags_[parent] |= kHasGpu;
}

void EventTree::add_node(Uid node, Uid parent) {
  if (node != parent_.size()) return;  // not the next event of the model
  parent_.push_back(parent);
  flags_.push_back(0);
  nn_stack_.push_back(kNoIndex);
  set_children(node, {});
}

void EventTree::append_child(Uid parent, Uid child) {
  auto entries = child_entries(parent);
  std::uint32_t seq = kNoIndex;
  // A GPU op keeps the link order it has under its current parent.
  if (parent_[child] != kNoUid) {
    for (const auto& [c, s] : child_entries(parent_[child])) {
      if (c == child) {
        seq = s;
        break;
      }
    }
  }
  entries.emplace_back(child, seq);
  set_children(parent, entries);
  mark_gpu_child(parent, child);
}

bool EventTree::remove_child(Uid parent, Uid child) {
  auto entries = child_entries(parent);
  const auto it = std::find_if(entries.begin(), entries.end(),
                               [child](const auto& e) { return e.first == child; });
  if (it == entries.end()) return false;
  entries.erase(it);
  set_children(parent, entries);
  return true;
}

bool EventTree::replace_child(Uid parent, Uid old_child, Uid new_child) {
  auto entries = child_entries(parent);
  const auto it = std::find_if(entries.begin(), entries.end(),
                               [old_child](const auto& e) { return e.first == old_child; });
  if (it == entries.end()) return false;
  *it = {new_child, kNoIndex};
  set_children(parent, entries);
  mark_gpu_child(parent, new_child);
  return true;
}

void EventTree::move_children(Uid from, Uid to) {
  const auto entries = child_entries(from);
  set_children(to, entries);
  for (const auto& [child, seq] : entries) {
    parent_[child] = to;
    mark_gpu_child(to, child);
  }
  set_children(from, {});
}

void EventTree::annotate_added_ops(const TraceModel& model) {
  if (options_.annotate_op_prefixes.empty() && options_.serving_annotate_op_prefixes.empty()) {
    return;
  }
  annotate_ops(model, built_nodes_);
}

std::vector<Uid> EventTree::linked_gpu_ops(const TraceModel& model) const {
  std::vector<Uid> out;
  for (Uid u = 0; u < model.event_count(); ++u) {
    if ((flags_[u] & kGpuCategory) != 0 && (flags_[u] & kLinked) != 0) out.push_back(u);
  }
  return out;
}

}  // namespace loupe::core::trace
