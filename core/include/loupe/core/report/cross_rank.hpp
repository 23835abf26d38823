// Cross-rank findings (docs/multirank.md, "Cross-rank findings"): per-node clock offsets
// estimated from collective end times, the straggler rank(s) from offset-corrected arrival
// order, the time the other ranks lose waiting for them, collectives far below the bus
// bandwidth their link class reaches in the same run, and a per-rank summary.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loupe/core/prepare/collective_report.hpp"
#include "loupe/findings.hpp"

namespace loupe::core::multirank {

// One rank's GPU time split, from its own analysis (perf_report_csvs/gpu_timeline.csv).
struct RankTimeline {
  int rank = 0;
  double computation_ms = 0.0;
  double busy_ms = 0.0;
  double idle_ms = 0.0;
  double exposed_comm_ms = 0.0;
  double total_ms = 0.0;
};

// gpu_timeline.csv text -> the five numbers; nullopt when a row is missing.
std::optional<RankTimeline> parse_gpu_timeline(int rank, const std::string& csv_text);

struct NodeOffset {
  int node = 0;
  double offset_us = 0.0;   // this node's clock minus node 0's (median over collectives)
  std::size_t samples = 0;  // collectives spanning this node and node 0
};

struct RankWait {
  int rank = 0;
  std::size_t collectives = 0;   // matched collectives the rank is a member of
  std::size_t arrived_last = 0;  // after clock correction
  double raw_wait_us = 0.0;      // sum of (latest start - own start), uncorrected clocks
  double wait_us = 0.0;          // the same on corrected clocks
};

struct Straggler {
  int rank = 0;
  std::size_t arrived_last = 0;
  std::size_t collectives = 0;
  double others_wait_us = 0.0;           // what the other members waited in its late collectives
  std::size_t waiting_ranks = 0;         // other ranks that waited on it at least once
  double max_rank_wait_us = 0.0;         // the most one other rank waited on it
  std::optional<double> compute_excess;  // computation time / median of the others - 1
  // Significance (docs/multirank.md, "Stragglers and noise"): how much later than the median
  // member the rank arrives on average, against the spread of that figure over the other ranks.
  double lateness_us = 0.0;       // its mean arrival after the median member (clock-corrected)
  double others_mean_us = 0.0;    // the same, mean over the other ranks
  double others_spread_us = 0.0;  // standard deviation of the other ranks' figure
  double mean_wait_share = 0.0;   // others' mean wait on it / median rank GPU time (0 unknown)
  bool significant = false;       // beyond the spread and material: a card; else within noise
};

struct SlowCollective {
  std::string collective;  // collective name
  std::string link;        // intra_node | inter_node
  double message_mb = 0.0;
  std::size_t count = 0;
  double median_bus_gbps = 0.0;
  double best_bus_gbps = 0.0;  // best group median bus bandwidth of the link class in this run
  double time_us = 0.0;        // summed communication latency
  double saving_us = 0.0;      // time minus the time at best_bus_gbps
  double upper_quartile_gbps = 0.0;       // of this group's instances
  double best_lower_quartile_gbps = 0.0;  // of the best group's instances
};

struct CrossRankAnalysis {
  int world_size = 0;
  std::optional<int> gpus_per_node;
  std::size_t collectives = 0;  // matched, with consistent metadata, two members or more
  std::vector<NodeOffset> offsets;
  std::vector<RankWait> waits;          // by rank
  std::vector<Straggler> stragglers;    // significant ones, ranked as findings
  std::vector<Straggler> within_noise;  // last most often, but within the ranks' own spread
  std::vector<SlowCollective> slow;
  // Below the share, but overlapping the best group's spread or immaterial: named, not ranked.
  std::vector<SlowCollective> slow_within_noise;
  std::vector<RankTimeline> timelines;  // by rank; may be empty
};

CrossRankAnalysis analyze_cross_rank(const std::vector<RankCollectives>& ranks, int world_size,
                                     std::optional<int> gpus_per_node,
                                     std::vector<RankTimeline> timelines);

// The system-tier findings document ("multirank"): one card per straggler and per slow
// collective group, the per-rank table, the clock offsets; NO_DATA without collectives.
findings::Document cross_rank_findings(const CrossRankAnalysis& analysis);

// What identifies each card of cross_rank_findings(analysis), in the cards' order, apart from its
// numbers: "straggler|<rank>" and "slow|<collective>|<MB>|<link>" (stable ids across runs).
std::vector<std::string> cross_rank_card_identities(const CrossRankAnalysis& analysis);

// The median of the ranks' GPU time (ms), which the cards' impact percentages are shares of;
// nothing without timelines.
std::optional<double> median_rank_gpu_ms(const CrossRankAnalysis& analysis);

}  // namespace loupe::core::multirank
