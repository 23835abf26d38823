// Spec §5.8: the decision gates that replace the LLM, as deterministic rules.
//   Overlap gate:  COMM-OVERLAP iff overlap flagged, or blocking flagged and overlap not graded.
//   Blocking gate: COMM-VOLUME iff blocking flagged while overlap is graded and healthy
//                  (blocking + poor overlap merge into COMM-OVERLAP).
//   Memcpy gate:   one card per flagged direction (D2H, H2D); the corrected mode also flags
//                  D2D and unclassified copies, which share one mechanism and so one card.
//   Sync gate:     compat never; default mode (docs/deviations.md S1): when the raw trace shows
//                  D2H / synchronous copies followed by GPU idle gaps of at least 1% of the GPU
//                  time span, the D2H card carries them, else a HostWaitIdle card does.
//   Merge gate:    at most one card per mechanism.
//   CPU/Idle boundary: no launch-overhead, GPU-graph or host-pipeline cards.
// Ranking: severity (exposed-communication share or the copy direction's time share)
// descending; ties COMM -> D2H -> H2D -> device copies.
#pragma once

#include <vector>

#include "analysis.hpp"

namespace loupe::multi_kernel {

enum class CardKind { CommOverlap, CommVolume, D2HCopy, H2DCopy, DeviceCopy, HostWaitIdle };

struct Card {
  CardKind kind = CardKind::CommOverlap;
  double severity = 0.0;
  std::vector<MemcpyIssue> issues;  // copy cards: the issues they cover
  bool with_idle = false;           // D2H / HostWaitIdle: result.sync_idle is reported on it
};

std::vector<Card> select_cards(const AnalysisResult& result);

}  // namespace loupe::multi_kernel
