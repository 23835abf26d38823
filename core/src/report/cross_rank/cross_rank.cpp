#include "loupe/core/report/cross_rank.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/core/prepare/collective_matching.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;

namespace {

// A rank is named a straggler when, on corrected clocks, it arrives last in at least this
// share of its collectives (and at least kStragglerMinimum times) and itself waits less than
// kStragglerWaitShare of what the median rank waits: the others wait for it, it waits for no one.
constexpr double kStragglerShare = 0.5;
constexpr std::size_t kStragglerMinimum = 3;
constexpr double kStragglerWaitShare = 0.1;
// A straggler is significant when its mean lateness exceeds the other ranks' mean by more than
// kNoiseSigmas standard deviations of theirs, and what each other rank waits on it is at least
// kMaterialShare of the median rank's GPU time (when that is known).
constexpr double kNoiseSigmas = 3.0;
constexpr double kMaterialShare = 0.005;
// A collective group is slow when its median bus bandwidth is below this share of the best group
// median of its link class in the run (groups of kMinBestInstances or more), its instances' upper
// quartile stays below that group's lower quartile (the two do not overlap), and its saving is
// material (kMaterialShare of the median rank's GPU time, when known); otherwise it is within
// noise. Messages below kMinMessageMb are latency-bound and skipped.
constexpr double kSlowShare = 0.25;
constexpr double kMinMessageMb = 1.0;
// A group sets its link class's best only with this many instances (one instance may be a timing
// artifact), unless no group of the class has that many.
constexpr std::size_t kMinBestInstances = 3;

// The q-quantile (0..1) of values, by linear interpolation.
double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const double pos = q * static_cast<double>(values.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, values.size() - 1);
  return values[lo] + (values[hi] - values[lo]) * (pos - static_cast<double>(lo));
}

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
}

int node_of(int rank, std::optional<int> gpus_per_node) {
  return gpus_per_node ? rank / *gpus_per_node : 0;
}

// Per-node clock offsets: in every collective all members finish together, so the difference
// of the members' end times between a node and node 0 is the difference of their clocks.
std::vector<NodeOffset> node_offsets(const std::vector<Collective>& collectives,
                                     std::optional<int> gpus_per_node) {
  std::map<int, std::vector<double>> samples;
  for (const Collective& c : collectives) {
    std::map<int, std::pair<double, int>> ends;  // node -> (sum of ends, count)
    for (const MatchedRow* m : c.members) {
      auto& e = ends[node_of(m->row->rank, gpus_per_node)];
      e.first += m->row->ts + m->row->dur;
      ++e.second;
    }
    const auto base = ends.find(0);
    if (base == ends.end() || ends.size() < 2) continue;
    const double base_end = base->second.first / base->second.second;
    for (const auto& [node, e] : ends) {
      if (node != 0) samples[node].push_back(e.first / e.second - base_end);
    }
  }
  std::vector<NodeOffset> offsets;
  for (const auto& [node, values] : samples) {
    offsets.push_back({node, median(values), values.size()});
  }
  return offsets;
}

double offset_of(int node, const std::vector<NodeOffset>& offsets) {
  for (const NodeOffset& o : offsets) {
    if (o.node == node) return o.offset_us;
  }
  return 0.0;
}

struct SlowSplit {
  std::vector<SlowCollective> slow;
  std::vector<SlowCollective> within_noise;
};

SlowSplit slow_collectives(const std::vector<Collective>& collectives,
                           std::optional<int> gpus_per_node, double median_gpu_ms) {
  struct Instance {
    std::string name, link;
    double mb = 0.0, latency = 0.0, bus = 0.0, factor = 0.0;
  };
  std::vector<Instance> instances;
  for (const Collective& c : collectives) {
    const pc::CollectiveRow& first = *c.members.front()->row;
    const auto type = collective_type(first.fields[pc::kCollectiveName]);
    if (!type || *type == CollectiveType::kAllToAllV || c.members.size() < 2) continue;
    const auto& mb = *type == CollectiveType::kAllGather ? first.out_msg_mb : first.in_msg_mb;
    const double factor = bus_factor(*type, first.fields[pc::kGroupSize]);
    if (!mb || !(factor > 0)) continue;
    double latency = first.dur;
    for (const MatchedRow* m : c.members) latency = std::min(latency, m->row->dur);
    if (!(latency > 0)) continue;
    Instance in;
    in.name = first.fields[pc::kCollectiveName].as_string();
    in.link = gpus_per_node ? node_span(first.fields[pc::kGroupRanks], *gpus_per_node)
                            : std::string("unknown");
    in.mb = *mb;
    in.latency = latency;
    in.factor = factor;
    in.bus = (*mb / 1024.0) / (latency / 1e6) * factor;
    instances.push_back(in);
  }
  using Key = std::tuple<std::string, std::string, double>;
  std::map<Key, std::vector<const Instance*>> groups;
  for (const Instance& in : instances) {
    if (in.mb >= kMinMessageMb) groups[{in.name, in.link, in.mb}].push_back(&in);
  }
  // The best of a link class is its best group median (one fast instance does not set it), with
  // that group's lower quartile.
  struct Best {
    double median = 0.0;
    double lower_quartile = 0.0;
  };
  std::map<std::string, Best> best;
  std::map<std::string, Best> best_of_any;  // when no group of the link class is large enough
  std::map<Key, std::vector<double>> bus_of;
  for (const auto& [key, members] : groups) {
    auto& bus = bus_of[key];
    for (const Instance* in : members) bus.push_back(in->bus);
    const double med = median(bus);
    const Best candidate{med, quantile(bus, 0.25)};
    if (Best& b = best_of_any[std::get<1>(key)]; med > b.median) b = candidate;
    if (members.size() < kMinBestInstances) continue;
    if (Best& b = best[std::get<1>(key)]; med > b.median) b = candidate;
  }
  for (const auto& [link, b] : best_of_any) best.try_emplace(link, b);
  SlowSplit split;
  for (const auto& [key, members] : groups) {
    const std::vector<double>& bus = bus_of[key];
    const Best& b = best[std::get<1>(key)];
    double time = 0.0;
    double ideal = 0.0;
    for (const Instance* in : members) {
      time += in->latency;
      ideal += (in->mb / 1024.0) * in->factor / b.median * 1e6;
    }
    const double med = median(bus);
    if (med >= kSlowShare * b.median) continue;
    SlowCollective s{
        std::get<0>(key), std::get<1>(key), std::get<2>(key), members.size(), med, b.median, time,
        time - ideal};
    s.upper_quartile_gbps = quantile(bus, 0.75);
    s.best_lower_quartile_gbps = b.lower_quartile;
    const bool separated = s.upper_quartile_gbps < s.best_lower_quartile_gbps;
    const bool material =
        median_gpu_ms <= 0 || s.saving_us / 1000.0 >= kMaterialShare * median_gpu_ms;
    (separated && material ? split.slow : split.within_noise).push_back(s);
  }
  for (auto* list : {&split.slow, &split.within_noise}) {
    std::sort(list->begin(), list->end(),
              [](const auto& a, const auto& b) { return a.saving_us > b.saving_us; });
  }
  return split;
}

}  // namespace

std::optional<RankTimeline> parse_gpu_timeline(int rank, const std::string& csv_text) {
  RankTimeline t;
  t.rank = rank;
  int found = 0;
  std::istringstream lines(csv_text);
  std::string line;
  while (std::getline(lines, line)) {
    const auto a = line.find(',');
    const auto b = line.find(',', a + 1);
    if (a == std::string::npos || b == std::string::npos) continue;
    const std::string key = line.substr(0, a);
    double* target = key == "computation_time"    ? &t.computation_ms
                     : key == "busy_time"         ? &t.busy_ms
                     : key == "idle_time"         ? &t.idle_ms
                     : key == "exposed_comm_time" ? &t.exposed_comm_ms
                     : key == "total_time"        ? &t.total_ms
                                                  : nullptr;
    if (target == nullptr) continue;
    try {
      *target = std::stod(line.substr(a + 1, b - a - 1));
      ++found;
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
  if (found != 5) return std::nullopt;
  return t;
}

CrossRankAnalysis analyze_cross_rank(const std::vector<RankCollectives>& ranks, int world_size,
                                     std::optional<int> gpus_per_node,
                                     std::vector<RankTimeline> timelines) {
  CrossRankAnalysis a;
  a.world_size = world_size;
  a.gpus_per_node = gpus_per_node;
  std::sort(timelines.begin(), timelines.end(),
            [](const auto& x, const auto& y) { return x.rank < y.rank; });
  a.timelines = std::move(timelines);

  std::vector<const RankCollectives*> sorted;
  for (const RankCollectives& r : ranks) sorted.push_back(&r);
  std::sort(sorted.begin(), sorted.end(),
            [](const auto* x, const auto* y) { return x->rank < y->rank; });
  bool by_stream_order = true;
  std::vector<pc::CollectiveRow> rows;
  for (const RankCollectives* r : sorted) {
    by_stream_order = by_stream_order && pc::lacks_group_metadata(r->rows);
    rows.insert(rows.end(), r->rows.begin(), r->rows.end());
  }
  pc::name_groups(rows, by_stream_order);
  const std::vector<MatchedRow> matched = match_collectives(rows, by_stream_order);
  std::vector<Collective> collectives;
  for (Collective& c : collectives_in_order(matched)) {
    if (c.members.size() >= 2 && (by_stream_order || mismatched_metadata(c).empty())) {
      collectives.push_back(std::move(c));
    }
  }
  a.collectives = collectives.size();
  a.offsets = node_offsets(collectives, gpus_per_node);

  std::map<int, RankWait> waits;
  std::map<int, std::map<int, double>> waited_on;          // last rank -> waiting rank -> µs
  std::map<int, std::pair<double, std::size_t>> lateness;  // rank -> (sum after median, count)
  for (const RankCollectives* r : sorted) waits[r->rank].rank = r->rank;
  for (const Collective& c : collectives) {
    double latest_raw = -INFINITY;
    double latest = -INFINITY;
    int last = c.members.front()->row->rank;
    for (const MatchedRow* m : c.members) {
      const double corrected =
          m->row->ts - offset_of(node_of(m->row->rank, gpus_per_node), a.offsets);
      latest_raw = std::max(latest_raw, m->row->ts);
      if (corrected > latest) {
        latest = corrected;
        last = m->row->rank;
      }
    }
    for (const MatchedRow* m : c.members) {
      const int r = m->row->rank;
      const double corrected = m->row->ts - offset_of(node_of(r, gpus_per_node), a.offsets);
      RankWait& w = waits[r];
      ++w.collectives;
      w.raw_wait_us += latest_raw - m->row->ts;
      w.wait_us += latest - corrected;
      if (r != last) waited_on[last][r] += latest - corrected;
    }
    ++waits[last].arrived_last;
    std::vector<double> arrivals;
    for (const MatchedRow* m : c.members) {
      arrivals.push_back(m->row->ts - offset_of(node_of(m->row->rank, gpus_per_node), a.offsets));
    }
    const double middle = median(arrivals);
    for (std::size_t i = 0; i < c.members.size(); ++i) {
      auto& [sum, n] = lateness[c.members[i]->row->rank];
      sum += arrivals[i] - middle;
      ++n;
    }
  }
  for (const auto& [rank, w] : waits) a.waits.push_back(w);

  std::map<int, double> busy;
  for (const RankTimeline& t : a.timelines) busy[t.rank] = t.computation_ms;
  std::vector<double> rank_waits;
  for (const RankWait& w : a.waits) {
    if (w.collectives > 0) rank_waits.push_back(w.wait_us);
  }
  const double median_wait = median(rank_waits);
  for (const RankWait& w : a.waits) {
    if (w.collectives == 0 || w.arrived_last < kStragglerMinimum) continue;
    const double share = static_cast<double>(w.arrived_last) / static_cast<double>(w.collectives);
    if (share < kStragglerShare || w.wait_us >= kStragglerWaitShare * median_wait) continue;
    Straggler s;
    s.rank = w.rank;
    s.arrived_last = w.arrived_last;
    s.collectives = w.collectives;
    for (const auto& [other, us] : waited_on[w.rank]) {
      s.others_wait_us += us;
      s.max_rank_wait_us = std::max(s.max_rank_wait_us, us);
      ++s.waiting_ranks;
    }
    a.stragglers.push_back(s);
  }
  // How much longer a straggler computes than the other ranks (their own analyses; communication
  // time is left out, since a straggler waits less inside its collectives).
  for (Straggler& s : a.stragglers) {
    if (busy.count(s.rank) == 0) continue;
    std::vector<double> others;
    for (const auto& [rank, b] : busy) {
      const bool straggler = std::any_of(a.stragglers.begin(), a.stragglers.end(),
                                         [&](const Straggler& x) { return x.rank == rank; });
      if (!straggler) others.push_back(b);
    }
    const double m = median(others);
    if (m > 0) s.compute_excess = busy[s.rank] / m - 1.0;
  }
  // Significance: the slowest rank of any set arrives last; it is a finding only when it is
  // late beyond the spread the other ranks show and the wait matters.
  std::vector<double> gpu_ms;
  for (const RankTimeline& t : a.timelines) gpu_ms.push_back(t.computation_ms);
  const double median_gpu_ms = median(gpu_ms);
  std::vector<Straggler> candidates = std::move(a.stragglers);
  a.stragglers.clear();
  // The spread is the other ranks' own: the other candidates (a set can have two stragglers)
  // are left out of it while enough ranks remain.
  const auto is_candidate = [&](int rank) {
    return std::any_of(candidates.begin(), candidates.end(),
                       [&](const Straggler& c) { return c.rank == rank; });
  };
  const std::size_t non_candidates = static_cast<std::size_t>(std::count_if(
      lateness.begin(), lateness.end(), [&](const auto& r) { return !is_candidate(r.first); }));
  for (Straggler& s : candidates) {
    std::vector<double> others;
    for (const auto& [rank, sum_n] : lateness) {
      if (sum_n.second == 0) continue;
      const double mean = sum_n.first / static_cast<double>(sum_n.second);
      if (rank == s.rank) {
        s.lateness_us = mean;
      } else if (non_candidates < 2 || !is_candidate(rank)) {
        others.push_back(mean);
      }
    }
    double mean = 0.0;
    for (const double v : others) mean += v;
    if (!others.empty()) mean /= static_cast<double>(others.size());
    double var = 0.0;
    for (const double v : others) var += (v - mean) * (v - mean);
    if (others.size() > 1) var /= static_cast<double>(others.size() - 1);
    s.others_mean_us = mean;
    s.others_spread_us = std::sqrt(var);
    const double mean_wait =
        s.waiting_ranks == 0 ? 0.0 : s.others_wait_us / static_cast<double>(s.waiting_ranks);
    if (median_gpu_ms > 0) s.mean_wait_share = mean_wait / 1000.0 / median_gpu_ms;
    const bool beyond_spread =
        others.size() >= 2 && s.lateness_us - mean > kNoiseSigmas * s.others_spread_us;
    const bool material = median_gpu_ms <= 0 || s.mean_wait_share >= kMaterialShare;
    s.significant = beyond_spread && material;
    (s.significant ? a.stragglers : a.within_noise).push_back(s);
  }
  std::sort(a.stragglers.begin(), a.stragglers.end(),
            [](const auto& x, const auto& y) { return x.others_wait_us > y.others_wait_us; });
  auto split = slow_collectives(collectives, gpus_per_node, median_gpu_ms);
  a.slow = std::move(split.slow);
  a.slow_within_noise = std::move(split.within_noise);
  return a;
}

}  // namespace loupe::core::multirank
