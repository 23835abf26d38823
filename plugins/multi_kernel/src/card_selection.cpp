#include "card_selection.hpp"

#include <algorithm>

namespace loupe::multi_kernel {

namespace {

int tie_order(CardKind kind) {
  switch (kind) {
    case CardKind::CommOverlap:
    case CardKind::CommVolume:
      return 0;
    case CardKind::D2HCopy:
      return 1;
    case CardKind::H2DCopy:
      return 2;
    case CardKind::DeviceCopy:
      return 3;
    case CardKind::HostWaitIdle:
      return 4;
  }
  return 4;
}

double rounded_share(double percent) { return py_round(PyNumber::real(percent), 2).value(); }

}  // namespace

std::vector<Card> select_cards(const AnalysisResult& result) {
  std::vector<Card> cards;
  const bool blocking = result.blocking.flagged;
  const bool overlap_graded = result.overlap.evaluated;
  const double comm_severity =
      result.blocking.evaluated ? rounded_share(result.blocking.percent) : 0.0;
  if (result.overlap.flagged || (blocking && !overlap_graded)) {
    cards.push_back({CardKind::CommOverlap, comm_severity, {}});
  } else if (blocking && overlap_graded) {
    cards.push_back({CardKind::CommVolume, comm_severity, {}});
  }

  Card device_copies{CardKind::DeviceCopy, 0.0, {}};
  for (const auto& issue : result.memcpy.issues) {
    const double severity = rounded_share(issue.percent);
    if (issue.direction == "D2H") {
      cards.push_back({CardKind::D2HCopy, severity, {issue}});
    } else if (issue.direction == "H2D") {
      cards.push_back({CardKind::H2DCopy, severity, {issue}});
    } else {
      device_copies.severity = std::max(device_copies.severity, severity);
      device_copies.issues.push_back(issue);
    }
  }
  if (!device_copies.issues.empty()) cards.push_back(std::move(device_copies));

  if (sync_idle_reportable(result.sync_idle, result.denominator_ms.value())) {
    const auto d2h = std::find_if(cards.begin(), cards.end(),
                                  [](const Card& c) { return c.kind == CardKind::D2HCopy; });
    const double share =
        rounded_share(result.sync_idle.idle_after_ms / result.denominator_ms.value() * 100);
    if (d2h != cards.end()) {
      d2h->with_idle = true;
      d2h->severity = std::max(d2h->severity, share);
    } else {
      cards.push_back({CardKind::HostWaitIdle, share, {}, true});
    }
  }

  std::stable_sort(cards.begin(), cards.end(), [](const Card& a, const Card& b) {
    if (a.severity != b.severity) return a.severity > b.severity;
    return tie_order(a.kind) < tie_order(b.kind);
  });
  return cards;
}

}  // namespace loupe::multi_kernel
