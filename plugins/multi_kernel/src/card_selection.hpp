// Spec §5.8: the decision gates that replace the LLM, as deterministic rules.
//   Overlap gate:  COMM-OVERLAP iff overlap flagged, or blocking flagged and overlap not graded.
//   Blocking gate: COMM-VOLUME iff blocking flagged while overlap is graded and healthy
//                  (blocking + poor overlap merge into COMM-OVERLAP).
//   Memcpy gate:   one card per flagged direction (D2H, H2D); the corrected mode also flags
//                  D2D and unclassified copies, which share one mechanism and so one card.
//   Sync gate:     never (the metrics hold no synchronization evidence).
//   Merge gate:    at most one card per mechanism.
//   CPU/Idle boundary: no launch-overhead, GPU-graph or host-pipeline cards.
// Ranking: severity (exposed-communication share or the copy direction's time share)
// descending; ties COMM -> D2H -> H2D -> device copies.
#pragma once

#include <vector>

#include "analysis.hpp"

namespace loupe::multi_kernel {

enum class CardKind { CommOverlap, CommVolume, D2HCopy, H2DCopy, DeviceCopy };

struct Card {
  CardKind kind = CardKind::CommOverlap;
  double severity = 0.0;
  std::vector<MemcpyIssue> issues;  // copy cards: the issues they cover
};

std::vector<Card> select_cards(const AnalysisResult& result);

}  // namespace loupe::multi_kernel
