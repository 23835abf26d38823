// The "multirank" system-tier findings document built from a CrossRankAnalysis
// (docs/multirank.md, "Cross-rank findings").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "loupe/core/report/cross_rank.hpp"

namespace loupe::core::multirank {

namespace fd = loupe::findings;

namespace {

constexpr const char* kCategory = "multirank";
constexpr const char* kTitle = "Multi-Rank Collective Analysis Findings";
constexpr const char* kSource =
    " (source: `collective_report/nccl_implicit_sync.csv`, `collective_report/nccl_long.csv` and "
    "each rank's `perf_report_csvs/gpu_timeline.csv`).";

std::string fixed(double value, int digits) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", digits, value);
  return buf;
}
std::string ms(double us) { return fixed(us / 1000.0, 3) + " ms"; }

// The median total GPU time of the ranks: the baseline a saving is a share of.
std::optional<fd::ImpactScores> impact(const CrossRankAnalysis& a, double low_us, double mid_us,
                                       double high_us, const std::string& what) {
  const auto base = median_rank_gpu_ms(a);
  if (!base || !(*base > 0)) return std::nullopt;
  const auto pct = [&](double us) {
    return std::round(us / 1000.0 / *base * 100.0 * 100.0) / 100.0;
  };
  return fd::ImpactScores{Json(pct(low_us)), Json(pct(mid_us)), Json(pct(high_us)),
                          "impact_score: " + fixed(pct(mid_us), 2) + "; estimated saving " +
                              ms(mid_us) + " per rank (low " + ms(low_us) + ", high " +
                              ms(high_us) + ": " + what + ")"};
}

fd::Section overview(const CrossRankAnalysis& a) {
  fd::Section s{"Overview", {}};
  std::string text = "**Ranks**: " + std::to_string(a.world_size);
  if (a.gpus_per_node) {
    const int nodes = (a.world_size + *a.gpus_per_node - 1) / *a.gpus_per_node;
    text += " on " + std::to_string(nodes) + (nodes == 1 ? " node" : " nodes") + " of " +
            std::to_string(*a.gpus_per_node) + " GPUs";
  }
  text += "\n**Collectives matched across ranks**: " + std::to_string(a.collectives);
  s.blocks.push_back(fd::paragraph(text));
  if (!a.offsets.empty()) {
    std::vector<std::string> items;
    for (const NodeOffset& o : a.offsets) {
      items.push_back("Node " + std::to_string(o.node) + "'s clock reads " +
                      fixed(std::abs(o.offset_us), 2) + " µs " +
                      (o.offset_us < 0 ? "behind" : "ahead of") + " node 0 (median over " +
                      std::to_string(o.samples) +
                      " collectives spanning both; members of a collective finish together, so "
                      "their end times differ only by the clocks).");
    }
    s.blocks.push_back(fd::paragraph(
        "**Clock offsets**: removed from every start time before arrival order and waits are "
        "measured; the raw skew TraceLens reports includes them."));
    s.blocks.push_back(fd::bullets(items));
  }
  return s;
}

fd::Section per_rank_table(const CrossRankAnalysis& a) {
  fd::Table t;
  t.columns = {"Rank",
               "Node",
               "Compute (ms)",
               "Busy (ms)",
               "Idle (ms)",
               "Exposed comm (ms)",
               "Wait in collectives (ms)",
               "Raw wait (ms)",
               "Arrived last"};
  std::map<int, const RankTimeline*> timeline;
  for (const RankTimeline& r : a.timelines) timeline[r.rank] = &r;
  for (const RankWait& w : a.waits) {
    const auto it = timeline.find(w.rank);
    const bool has = it != timeline.end();
    t.rows.push_back(
        {std::to_string(w.rank),
         a.gpus_per_node ? std::to_string(w.rank / *a.gpus_per_node) : std::string("-"),
         has ? fixed(it->second->computation_ms, 3) : "-",
         has ? fixed(it->second->busy_ms, 3) : "-", has ? fixed(it->second->idle_ms, 3) : "-",
         has ? fixed(it->second->exposed_comm_ms, 3) : "-", fixed(w.wait_us / 1000.0, 3),
         fixed(w.raw_wait_us / 1000.0, 3),
         std::to_string(w.arrived_last) + " of " + std::to_string(w.collectives)});
  }
  fd::Section s{"Per-Rank Summary", {}};
  s.blocks.push_back(fd::paragraph(
      "GPU time from each rank's own analysis; waits are summed over the matched collectives, "
      "on clocks corrected for the node offsets (raw: as the trace's clocks read)."));
  s.blocks.push_back(fd::table(std::move(t)));
  return s;
}

// Appends the card and its detail: the detail repeats the title, says how such findings are
// identified, shows one table and resolves with the card's action.
void add_card(fd::Document& doc, const fd::Recommendation& card, const std::string& identification,
              fd::Table table, const std::string& reasoning) {
  doc.recommendations.push_back(card);
  fd::Detail d;
  d.title = card.title;
  d.identification = identification + kSource;
  d.data.push_back(fd::table(std::move(table)));
  d.reasoning = reasoning;
  d.resolution = card.action;
  doc.details.push_back(std::move(d));
}

void add_straggler(const CrossRankAnalysis& a, const Straggler& s, fd::Document& doc) {
  const std::string rank = "Rank " + std::to_string(s.rank);
  const double mean_wait =
      s.waiting_ranks == 0 ? 0.0 : s.others_wait_us / static_cast<double>(s.waiting_ranks);
  fd::Recommendation r;
  r.title = rank + " is a straggler: it arrives last at " + std::to_string(s.arrived_last) +
            " of its " + std::to_string(s.collectives) + " collectives";
  r.insight = rank + " starts last in " + std::to_string(s.arrived_last) + " of " +
              std::to_string(s.collectives) + " collectives (clock offsets removed); " +
              std::to_string(s.waiting_ranks) + " other ranks waited " + ms(s.others_wait_us) +
              " in all inside those collectives (" + ms(mean_wait) + " each on average, up to " +
              ms(s.max_rank_wait_us) + ").";
  if (s.compute_excess && *s.compute_excess > 0.02) {
    r.insight += " Its GPU computes " + fixed(*s.compute_excess * 100.0, 1) +
                 "% longer than the median of the other ranks (computation time, communication "
                 "left out), so it reaches each collective late because its kernels run slower.";
    r.action = "Compare " + rank + "'s kernel times (rank_" + std::to_string(s.rank) +
               "/perf_report_csvs) with another rank's and check its GPU clocks, power and "
               "temperature during the run; replace or cool a throttling GPU, or move work off "
               "this rank if its input shard is larger.";
  } else {
    r.insight += std::string(s.compute_excess ? " Its GPU computes no longer than the others'"
                                              : " Its GPU time is not known") +
                 ", so the delay is looked for on the host side of this rank (data loading, "
                 "launch or a synchronization before the collective).";
    r.action = "Profile the host side of " + rank +
               " before its collectives (the CPU/Idle findings in rank_" + std::to_string(s.rank) +
               "/system_findings) and remove what delays its launches, e.g. a slower data "
               "loader worker or a host synchronization.";
  }
  r.impact = impact(a, mean_wait, mean_wait, s.max_rank_wait_us,
                    "the measured wait of the other ranks on it, mean per rank and the most one "
                    "rank waited; an upper bound, part of it moves to the next-slowest rank");
  fd::Table t;
  t.columns = {"Rank", "Arrived last", "Collectives", "Others' wait on it (ms)",
               "Compute vs others"};
  t.rows.push_back({std::to_string(s.rank), std::to_string(s.arrived_last),
                    std::to_string(s.collectives), fixed(s.others_wait_us / 1000.0, 3),
                    s.compute_excess ? (*s.compute_excess >= 0 ? "+" : "") +
                                           fixed(*s.compute_excess * 100.0, 1) + "%"
                                     : std::string("-")});
  add_card(doc, r,
           "Ranks that start last in most of their collectives once the node clock offsets are "
           "removed",
           std::move(t),
           "Every member of a collective waits inside it until the last member arrives; a rank "
           "that is last in most of its collectives sets the pace of all of them.");
}

void add_slow(const CrossRankAnalysis& a, const SlowCollective& s, fd::Document& doc) {
  const std::string link = s.link == "inter_node" ? "across nodes" : "within a node";
  fd::Recommendation r;
  r.title = s.collective + " of " + fixed(s.message_mb, 1) + " MB " + link + " reaches " +
            fixed(s.median_bus_gbps, 1) + " GB/s bus bandwidth, " +
            fixed(s.median_bus_gbps / s.best_bus_gbps * 100.0, 0) + "% of its link's best";
  r.insight = std::to_string(s.count) + " " + s.collective + " collectives of " +
              fixed(s.message_mb, 1) + " MB " + link + " took " + ms(s.time_us) +
              " (communication latency, the fastest member) at a median " +
              fixed(s.median_bus_gbps, 1) + " GB/s bus bandwidth, while other collectives " + link +
              " of 1 MB or more reach " + fixed(s.best_bus_gbps, 1) + " GB/s in this run.";
  r.action =
      "Run with NCCL_DEBUG=INFO (RCCL: the same) and check the algorithm, protocol and "
      "transport chosen for this process group; a collective far below its peers on the "
      "same links usually runs on a fallback transport or an unbalanced ring.";
  r.impact = impact(a, 0.0, s.saving_us, s.saving_us,
                    "its latency minus the time at the best bus bandwidth of its link class");
  fd::Table t;
  t.columns = {"Collective",           "Message (MB)",        "Link",     "Count",
               "Median bus bw (GB/s)", "Best of link (GB/s)", "Time (ms)"};
  t.rows.push_back({s.collective, fixed(s.message_mb, 1), s.link, std::to_string(s.count),
                    fixed(s.median_bus_gbps, 1), fixed(s.best_bus_gbps, 1),
                    fixed(s.time_us / 1000.0, 3)});
  add_card(doc, r,
           "Collective groups (name, message size, link class) whose median bus bandwidth is "
           "below a quarter of the best group median of their link class, with the two groups' "
           "interquartile ranges apart and at least 0.5% of the median rank's GPU time at stake",
           std::move(t),
           "The same links move other collectives at the best bandwidth shown, so the links are "
           "not what limits this one.");
}

}  // namespace

std::optional<double> median_rank_gpu_ms(const CrossRankAnalysis& a) {
  std::vector<double> totals;
  for (const RankTimeline& t : a.timelines) totals.push_back(t.total_ms);
  if (totals.empty()) return std::nullopt;
  std::sort(totals.begin(), totals.end());
  const std::size_t n = totals.size();
  return n % 2 == 1 ? totals[n / 2] : (totals[n / 2 - 1] + totals[n / 2]) / 2.0;
}

// Ranks that arrive last most often but whose lateness stays within the spread of the others
// (or whose wait is immaterial): named with the numbers, not ranked.
fd::Section within_noise(const CrossRankAnalysis& a) {
  std::vector<std::string> items;
  for (const Straggler& s : a.within_noise) {
    items.push_back("Rank " + std::to_string(s.rank) + " arrives last at " +
                    std::to_string(s.arrived_last) + " of its " + std::to_string(s.collectives) +
                    " collectives, " + fixed(s.lateness_us, 1) +
                    " us after the median member on average; the other ranks average " +
                    fixed(s.others_mean_us, 1) + " us with a spread (standard deviation) of " +
                    fixed(s.others_spread_us, 1) + " us, and their mean wait on it is " +
                    fixed(s.mean_wait_share * 100.0, 2) +
                    "% of the median rank's GPU time: within the run's own variation, not a "
                    "straggler (a straggler is late by more than 3 spreads and costs the others at "
                    "least 0.5%).");
  }
  for (const SlowCollective& s : a.slow_within_noise) {
    const std::string link = s.link == "inter_node" ? "across nodes" : "within a node";
    items.push_back(
        std::to_string(s.count) + " " + s.collective + " collectives of " + fixed(s.message_mb, 1) +
        " MB " + link + " reach a median " + fixed(s.median_bus_gbps, 1) +
        " GB/s bus bandwidth (upper quartile " + fixed(s.upper_quartile_gbps, 1) +
        " GB/s) against " + fixed(s.best_bus_gbps, 1) +
        " GB/s for the best group of their link class (lower quartile " +
        fixed(s.best_lower_quartile_gbps, 1) + " GB/s), " + ms(s.saving_us) +
        " above it: not ranked, since the two spreads overlap or the time is under 0.5% of the "
        "median rank's GPU time.");
  }
  return {"Within noise", {fd::bullets(items)}};
}

// The same order as the cards of cross_rank_findings: stragglers, then slow collectives.
std::vector<std::string> cross_rank_card_identities(const CrossRankAnalysis& a) {
  std::vector<std::string> ids;
  if (a.collectives == 0) return ids;
  for (const Straggler& s : a.stragglers) ids.push_back("straggler|" + std::to_string(s.rank));
  for (const SlowCollective& s : a.slow) {
    ids.push_back("slow|" + s.collective + "|" + fixed(s.message_mb, 1) + "|" + s.link);
  }
  return ids;
}

findings::Document cross_rank_findings(const CrossRankAnalysis& a) {
  fd::Document doc = fd::new_findings(fd::Style::System, kCategory, Scope::Standalone, kTitle);
  if (a.collectives == 0) {
    doc.status = fd::Status::NoData;
    doc.message = "no collective was matched across two ranks or more";
    return doc;
  }
  doc.sections.push_back(overview(a));
  doc.sections.push_back(per_rank_table(a));
  if (!a.within_noise.empty() || !a.slow_within_noise.empty()) {
    doc.sections.push_back(within_noise(a));
  }
  for (const Straggler& s : a.stragglers) add_straggler(a, s, doc);
  for (const SlowCollective& s : a.slow) add_slow(a, s, doc);
  for (std::size_t i = 0; i < doc.details.size(); ++i) {
    doc.details[i].rank = static_cast<int>(i + 1);
  }
  return doc;
}

}  // namespace loupe::core::multirank
