#include "findings_builder.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <optional>

#include "loupe/python_format.hpp"

namespace loupe::multi_kernel {

namespace fd = loupe::findings;

namespace {

// "1 transfer", "3 transfers": findings prose in both modes (metrics keep TraceLens's strings).
std::string counted(const PyNumber& count, const char* singular, const char* plural) {
  return count.str() + " " + (count.value() == 1.0 ? singular : plural);
}

constexpr const char* kMetricsFile = "`multi_kernel_metrics.json`";

std::string bool_text(bool value) { return value ? "true" : "false"; }

std::string direction_heading(const std::string& direction) {
  if (direction == "D2H") return "D2H (Device-to-Host) Transfers";
  if (direction == "H2D") return "H2D (Host-to-Device) Transfers";
  if (direction == "D2D") return "D2D (Device-to-Device) Transfers";
  return "Other (Unclassified Direction) Transfers";
}

std::string summary_label(const std::string& direction) {
  return direction == "other" ? "Other Transfers" : direction + " Transfers";
}

const MemcpyIssue* issue_for(const AnalysisResult& result, const std::string& direction) {
  for (const auto& issue : result.memcpy.issues) {
    if (issue.direction == direction) return &issue;
  }
  return nullptr;
}

size_t assessed_direction_count(const AnalysisResult& result) {
  return result.corrected ? result.memcpy.directions.size() : 2;
}

double direction_ms(const DirectionStats& stats) { return py_div(stats.total_time_us, 1000.0); }

// A percentage shown with two decimals; in the corrected mode never printed as equal to the
// threshold it was compared with.
std::string share(const AnalysisResult& result, double percent, double threshold) {
  return result.corrected ? fixed_apart_from(percent, threshold, 2) : fixed(percent, 2);
}

std::string copies(const PyNumber& count) {
  return count.value() == 1.0 ? "copy takes" : "copies take";
}

// ---- Overview --------------------------------------------------------------------------
fd::Section overview(const AnalysisResult& result) {
  fd::Section s{"Overview", {}};
  s.blocks.push_back(fd::paragraph("**Status**: SUCCESS\n**Analysis Tier**: System-Level"));
  const std::string mode =
      result.workload.mode == WorkloadMode::Inference ? "inference" : "training";
  s.blocks.push_back(fd::paragraph("**Workload**: " + mode + ", " + result.workload.source +
                                   ". Communication recommendations follow " + mode +
                                   " strategies."));
  if (result.corrected) {
    std::string text = "**Metrics mode**: corrected (Loupe default, see docs/deviations.md). ";
    if (result.denominator_population == "all_gpu_events") {
      text += "Memory-copy shares use the all-GPU-event span of " +
              fixed(result.denominator_ms.value(), 3) + " ms from multi_kernel_data.json.";
    } else if (result.denominator_population == "linked_gpu_events") {
      text += "Memory-copy shares use the gpu_timeline.csv span of " +
              fixed(result.denominator_ms.value(), 3) +
              " ms because multi_kernel_data.json has no span.";
    } else {
      text += "No GPU time span is available, so memory-copy shares are not computed.";
    }
    s.blocks.push_back(fd::paragraph(text));
  } else {
    std::string text = "**Metrics mode**: TraceLens-compatible (`--compat tracelens`). ";
    if (result.timeline_source == TotalTime::Source::TimelineRow) {
      text += "Memory-copy shares use the gpu_timeline.csv span of " +
              fixed(result.timeline_total_ms.value(), 3) + " ms.";
    } else if (result.timeline_source == TotalTime::Source::Fallback) {
      text += "gpu_timeline.csv could not be read, so memory-copy shares use the " +
              fixed(result.timeline_total_ms.value(), 3) + " ms span of multi_kernel_data.json.";
    } else {
      text += "gpu_timeline.csv has no total_time row, so memory copies are not assessed.";
    }
    s.blocks.push_back(fd::paragraph(text));
  }
  if (result.all_events_span_ms && result.timeline_source == TotalTime::Source::TimelineRow) {
    s.blocks.push_back(fd::paragraph("**GPU populations**: multi_kernel_data.json spans " +
                                     fixed(*result.all_events_span_ms, 3) +
                                     " ms over all GPU events, and gpu_timeline.csv spans " +
                                     fixed(result.timeline_total_ms.value(), 3) +
                                     " ms over GPU events linked to a CPU launch."));
  }
  if (!result.cross.performed) {
    s.blocks.push_back(fd::paragraph("**Cross-validation**: not performed because " +
                                     result.timeline.unreadable_reason + "."));
  } else if (result.cross.status == "PASS") {
    const int compared = 4 - result.cross.skip_count;
    s.blocks.push_back(fd::paragraph("**Cross-validation**: PASS, " + std::to_string(compared) +
                                     " of 4 checks agree with gpu_timeline.csv within 2% (" +
                                     std::to_string(result.cross.skip_count) + " skipped)."));
  } else {
    s.blocks.push_back(fd::paragraph(
        "**Cross-validation**: WARN, " + std::to_string(result.cross.warn_count) +
        " of 4 checks differ from gpu_timeline.csv by more than 2%. The two files count "
        "different GPU-event populations (all events versus events linked to a CPU launch)."));
  }
  if (result.scope == Scope::Comparative) {
    s.blocks.push_back(
        fd::paragraph("**Scope**: comparative; the multi-kernel analysis covers Trace 1 only."));
  }
  return s;
}

// ---- Summary ---------------------------------------------------------------------------
std::string exposed_summary(const AnalysisResult& result) {
  if (!result.blocking.evaluated) return "N/A";
  return share(result, result.blocking.percent, kExposedCommThreshold) + "% of total";
}

std::string overlap_summary(const AnalysisResult& result) {
  if (!result.overlap.evaluated) return "N/A";
  return share(result, result.overlap.ratio * 100.0, kOverlapTargetPercent) + "%";
}

fd::Section summary(const AnalysisResult& result) {
  fd::Table t{{"Metric", "Value", "Flagged"}, {}};
  t.rows.push_back(
      {"Total Memcpy Events", result.memcpy.total_count.str(), bool_text(result.memcpy.flagged)});
  for (size_t d = 0; d < assessed_direction_count(result); ++d) {
    const DirectionStats& stats = result.memcpy.directions[d];
    t.rows.push_back({summary_label(stats.direction),
                      stats.count.str() + " (" + fixed(direction_ms(stats), 3) + " ms)",
                      bool_text(issue_for(result, stats.direction) != nullptr)});
  }
  t.rows.push_back(
      {"Exposed Communication", exposed_summary(result), bool_text(result.blocking.flagged)});
  t.rows.push_back(
      {"Compute/Comm Overlap", overlap_summary(result), bool_text(result.overlap.flagged)});
  return {"Summary", {fd::table(std::move(t))}};
}

// ---- Memory Copy Analysis --------------------------------------------------------------
std::string cause_hint(const std::string& direction) {
  if (direction == "D2H") {
    return " Typical sources are per-step scalar reads, host transfers of tensors, and logging "
           "inside the hot loop.";
  }
  if (direction == "H2D") {
    return " Typical sources are pageable host buffers, per-step host tensor creation, and input "
           "staging.";
  }
  if (direction == "D2D") {
    return " Typical sources are redundant device moves, contiguous() calls, and layout "
           "conversions.";
  }
  return " This bucket holds copies whose name states no direction, such as legacy copy "
         "kernels and host-to-host copies.";
}

std::string root_cause(const AnalysisResult& result, const DirectionStats& stats, double pct) {
  if (stats.count.value() == 0.0) return "No " + stats.direction + " transfers were recorded.";
  if (!result.memcpy.evaluated) return "Not assessed because no total GPU time is available.";
  const MemcpyIssue* issue = issue_for(result, stats.direction);
  const std::string pct_text = share(result, pct, kMemcpyShareThreshold);
  if (issue == nullptr) {
    if (result.corrected && stats.count.value() > static_cast<double>(kMemcpyCountThreshold)) {
      return "The transfer count of " + stats.count.str() + " exceeds 10, but the time share of " +
             pct_text + "% is at most 1%, so the direction is not flagged.";
    }
    return "Below thresholds (" + counted(stats.count, "transfer", "transfers") +
           " against a limit of 10, and " + pct_text +
           "% of total GPU time against a limit of 5%).";
  }
  std::string text;
  if (issue->by_count && issue->by_time_share) {
    text = "Both transfer frequency (" + stats.count.str() + " > 10) and time share (" + pct_text +
           "% > 5%) exceed thresholds.";
  } else if (issue->by_count) {
    text = "Transfer frequency (" + stats.count.str() +
           ") exceeds 10 per trace while time share "
           "stays at " +
           pct_text + "%.";
  } else if (issue->by_time_share) {
    text = stats.direction + " transfer time (" + pct_text + "%) exceeds 5% of total GPU time.";
  }
  if (issue->by_link) {
    if (!text.empty()) text += " ";
    text += "The copies move " + fixed(issue->bytes / 1e6, 1) + " MB at " +
            fixed(*issue->achieved_gbps, 2) + " GB/s, under " + fixed(kSlowLinkPercent, 0) +
            "% of the " + fixed(*issue->link_gbps, 0) + " GB/s host link, while taking over " +
            fixed(kCountRuleMinShare, 0) + "% of total GPU time (" + pct_text + "%).";
  }
  return text + cause_hint(stats.direction);
}

fd::Section memcpy_section(const AnalysisResult& result) {
  fd::Section s{"Memory Copy Analysis", {}};
  for (size_t d = 0; d < assessed_direction_count(result); ++d) {
    const DirectionStats& stats = result.memcpy.directions[d];
    const double ms = direction_ms(stats);
    const double denominator = result.memcpy.denominator_ms;
    const double pct = denominator > 0.0 ? ms / denominator * 100 : 0.0;
    const std::string share_text =
        result.memcpy.evaluated ? share(result, pct, kMemcpyShareThreshold) + "%" : "N/A";
    s.blocks.push_back(fd::subheading(direction_heading(stats.direction)));
    s.blocks.push_back(fd::bullets({
        "**Count**: " + counted(stats.count, "transfer", "transfers"),
        "**Total Time**: " + fixed(ms, 3) + " ms (" + share_text + " of total GPU time)",
        "**Flagged**: " + bool_text(issue_for(result, stats.direction) != nullptr),
        "**Root Cause**: " + root_cause(result, stats, pct),
    }));
  }
  return s;
}

// ---- Communication Blocking Analysis ----------------------------------------------------
fd::Section communication_section(const AnalysisResult& result) {
  fd::Section s{"Communication Blocking Analysis", {}};
  std::vector<std::string> blocking;
  if (result.blocking.evaluated) {
    blocking.push_back("**Exposed Communication Time**: " + fixed(result.blocking.exposed_ms, 3) +
                       " ms (" + share(result, result.blocking.percent, kExposedCommThreshold) +
                       "% of total)");
    blocking.push_back("**Total Communication Time**: " + fixed(result.blocking.total_comm_ms, 3) +
                       " ms");
  } else {
    blocking.push_back("**Exposed Communication Time**: N/A (No communication events detected)");
    blocking.push_back("**Total Communication Time**: N/A (No communication events detected)");
  }
  if (result.comm_kernel_count.value() > 0.0) {
    std::string text = "**Communication Kernels**: " + result.comm_kernel_count.str() +
                       " kernels with " + fixed(result.comm_kernel_sum_ms, 3) +
                       " ms summed duration";
    if (!result.longest_comm_kernel.empty()) {
      text += " (longest: `" + result.longest_comm_kernel + "`, " +
              fixed(result.longest_comm_kernel_us / 1000.0, 3) + " ms)";
    }
    blocking.push_back(text);
  }
  blocking.push_back("**Flagged**: " + bool_text(result.blocking.flagged));
  s.blocks.push_back(fd::subheading("Communication Blocking Compute"));
  s.blocks.push_back(fd::bullets(std::move(blocking)));

  s.blocks.push_back(fd::subheading("Compute/Communication Overlap"));
  const std::string ratio =
      result.overlap.evaluated
          ? share(result, result.overlap.ratio * 100.0, kOverlapTargetPercent) + "% (target > 70%)"
          : "N/A (Insufficient communication data for overlap analysis)";
  s.blocks.push_back(fd::bullets(
      {"**Overlap Ratio**: " + ratio, "**Flagged**: " + bool_text(result.overlap.flagged)}));
  return s;
}

// ---- Detected Patterns ------------------------------------------------------------------
std::string covering_title(const Pattern& pattern, const std::vector<Card>& cards,
                           WorkloadMode mode) {
  for (const auto& card : cards) {
    const bool comm_card = card.kind == CardKind::CommOverlap || card.kind == CardKind::CommVolume;
    if (pattern.direction.empty() && comm_card) return card_title(card, mode);
    for (const auto& issue : card.issues) {
      if (issue.direction == pattern.direction) return card_title(card, mode);
    }
  }
  return "none";
}

fd::Section patterns_section(const AnalysisResult& result, const std::vector<Card>& cards) {
  fd::Section s{"Detected Patterns", {}};
  if (result.patterns.empty()) {
    s.blocks.push_back(fd::paragraph("None detected: no assessment crossed its threshold."));
    return s;
  }
  std::vector<fd::NumberedItem> items;
  for (const auto& p : result.patterns) {
    items.push_back({"**" + p.id + "**",
                     {"Evidence: " + p.description,
                      "Recommendation: " + covering_title(p, cards, result.workload.mode)}});
  }
  s.blocks.push_back(fd::numbered(std::move(items)));
  return s;
}

// ---- Cards and detail blocks ------------------------------------------------------------
std::string comm_insight(const AnalysisResult& result, CardKind kind) {
  const std::string exposed_pct = share(result, result.blocking.percent, kExposedCommThreshold);
  const std::string overlap_pct =
      share(result, result.overlap.ratio * 100.0, kOverlapTargetPercent);
  if (kind == CardKind::CommVolume) {
    return "Communication is " + overlap_pct + "% overlapped with compute, yet " + exposed_pct +
           "% of total GPU time is still exposed communication.";
  }
  std::string text = "Collective communication leaves " + fixed(result.blocking.exposed_ms, 3) +
                     " ms (" + exposed_pct + "% of total GPU time) uncovered by compute, and ";
  if (result.overlap.evaluated) {
    text += "only " + overlap_pct + "% of communication overlaps compute.";
  } else {
    text += "the communication volume is too small to grade overlap.";
  }
  return text;
}

std::string copy_phrase(const AnalysisResult& result, const MemcpyIssue& issue) {
  static const std::map<std::string, std::string> kWords = {{"D2H", "device-to-host"},
                                                            {"H2D", "host-to-device"},
                                                            {"D2D", "device-to-device"},
                                                            {"other", "unclassified-direction"}};
  std::string text = issue.count.str() + " " + kWords.at(issue.direction) + " " +
                     copies(issue.count) + " " + fixed(issue.time_ms, 3) + " ms (" +
                     share(result, issue.percent, kMemcpyShareThreshold) + "% of total GPU time)";
  if (issue.achieved_gbps && issue.link_gbps) {
    text += ", moving " + fixed(issue.bytes / 1e6, 1) + " MB at " + fixed(*issue.achieved_gbps, 2) +
            " GB/s, " + fixed(*issue.achieved_gbps / *issue.link_gbps * 100, 1) + "% of the " +
            fixed(*issue.link_gbps, 0) + " GB/s host link";
  }
  return text;
}

// Default mode: copies flagged as slow on the host link save the time above what a pinned copy
// reaches (kPinnedLinkShare of the link's peak; low: half of it, high: all of it).
std::optional<fd::SavingMs> link_saving(const Card& card) {
  if (card.issues.size() != 1 || !card.issues.front().by_link) return std::nullopt;
  const MemcpyIssue& issue = card.issues.front();
  const auto at = [&](double share_of_link) {
    return std::max(0.0, issue.time_ms - issue.bytes / (*issue.link_gbps * share_of_link) / 1e6);
  };
  const fd::SavingMs s{at(kPinnedLinkShare / 2), at(kPinnedLinkShare), at(1.0)};
  if (!(s.mid > 0)) return std::nullopt;
  return s;
}

fd::ImpactScores link_impact(const AnalysisResult& result, const fd::SavingMs& s) {
  const double total = result.denominator_ms.value();
  const auto pct = [&](double ms) { return Json(py::round_half_even(ms / total * 100, 2)); };
  return fd::ImpactScores{pct(s.low), pct(s.mid), pct(s.high),
                          "impact_score: " + loupe::dump_python_json(pct(s.mid), -1) +
                              "; estimated saving " + fixed(py::round_half_even(s.mid, 3), 3) +
                              " ms: the copies at " + fixed(kPinnedLinkShare * 100, 0) +
                              "% of the host link's peak instead of their measured rate"};
}

// The copy-call sentence for a HostWaitIdle source: what in the framework issues it.
std::string host_read_hint(const std::string& op_name) {
  if (op_name == "aten::_local_scalar_dense" || op_name == "aten::item") {
    return "`tensor.item()` (or a Python `if`/`bool()` on a GPU tensor)";
  }
  if (op_name.empty()) return "a copy outside any PyTorch op";
  return "`.cpu()` / `.tolist()` / `.numpy()` on a GPU tensor (`" + op_name + "`)";
}

// S1: what the raw trace shows about the idle time after D2H / synchronous copies.
std::string idle_sentence(const AnalysisResult& result) {
  const SyncIdle& s = result.sync_idle;
  std::string text =
      "After " + std::to_string(s.copies_before_idle) + " of " + std::to_string(s.copies) +
      " device-to-host or synchronous copies the GPU sits idle until the host "
      "launches more work: " +
      fixed(s.idle_after_ms, 3) + " ms in total (" +
      fixed(s.idle_after_ms / result.denominator_ms.value() * 100, 2) + "% of the GPU time span, " +
      fixed(s.total_idle_ms > 0 ? s.idle_after_ms / s.total_idle_ms * 100 : 0, 2) + "% of its " +
      fixed(s.total_idle_ms, 3) + " ms of idle gaps), the longest gap " +
      fixed(s.largest_gap_ms, 3) + " ms.";
  if (s.host_blocked_ms && s.claimed_ms() < s.idle_after_ms) {
    text += " The host was blocked in synchronizing calls for only " + fixed(s.claimed_ms(), 3) +
            " ms of GPU idle (cpu_idle's attribution); this card claims that much, the rest of "
            "those gaps has other causes (see the cpu_idle findings).";
  }
  if (!s.sources.empty()) {
    const auto& top = s.sources.front();
    text += " Most of it follows copies from " +
            (top.op_name.empty() ? std::string("no PyTorch op") : "`" + top.op_name + "`") + " (" +
            std::to_string(top.gaps) + " gaps, " + fixed(top.idle_ms, 3) + " ms).";
  }
  return text;
}

std::string copy_insight(const AnalysisResult& result, const Card& card) {
  if (card.kind == CardKind::HostWaitIdle) return idle_sentence(result);
  std::string text;
  for (size_t i = 0; i < card.issues.size(); ++i) {
    if (i > 0) text += ", and ";
    text += copy_phrase(result, card.issues[i]);
  }
  text += ".";
  text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  if (card.with_idle) text += " " + idle_sentence(result);
  return text;
}

bool covers(const Card& card, const std::string& direction) {
  return std::any_of(card.issues.begin(), card.issues.end(),
                     [&](const MemcpyIssue& i) { return i.direction == direction; });
}

std::string action(const Card& card, WorkloadMode mode) {
  const bool training = mode == WorkloadMode::Training;
  switch (card.kind) {
    case CardKind::CommOverlap:
      return training
                 ? "Launch gradient collectives asynchronously during the backward pass using "
                   "bucketed gradient hooks so they run under the remaining backward compute. "
                   "This should lower exposed communication time and raise the overlap ratio."
                 : "Issue tensor-parallel collectives on a dedicated communication stream and "
                   "schedule independent decode compute alongside them. This should lower exposed "
                   "communication time and raise the overlap ratio.";
    case CardKind::CommVolume:
      return training ? "Increase the gradient bucket size so fewer and larger collectives align "
                        "with available compute. This should lower exposed communication time."
                      : "Use a quantized or compressed all-reduce to shrink collective payloads. "
                        "This should lower exposed communication time.";
    case CardKind::D2HCopy:
      return "Keep per-step scalars and tensors on the device and batch any host reads outside "
             "the hot loop. This should cut the D2H transfer count and time.";
    case CardKind::H2DCopy:
      return "Stage host inputs in pinned buffers and issue non-blocking copies ahead of their "
             "consumers. This should reduce H2D time and exposed memcpy time.";
    case CardKind::HostWaitIdle:
      return "Keep the values the host reads on the device, or read them once per several steps "
             "with a non-blocking copy into pinned memory and an event, instead of a blocking "
             "read in every step. This should remove the GPU idle time after the copies.";
    case CardKind::DeviceCopy: {
      const bool d2d = covers(card, "D2D");
      const bool other = covers(card, "other");
      const std::string moved = d2d && other ? "D2D and unclassified"
                                : d2d        ? "D2D"
                                             : "unclassified";
      return std::string(d2d ? "Remove copies of tensors that already sit in the required device "
                               "buffer and layout, and reuse buffers in place."
                             : "Trace each unclassified copy to its source operator and remove "
                               "the copies whose data already sits where it is consumed.") +
             " This should cut the " + moved + " copy count and time.";
    }
  }
  return {};
}

std::string identification(const Card& card) {
  const std::string comm_source = std::string(" (source: ") + kMetricsFile +
                                  " → `nccl_blocking_assessment.exposed_percent_of_total`, "
                                  "`overlap_assessment.overlap_ratio`).";
  const std::string copy_source = std::string(" (source: ") + kMetricsFile +
                                  " → `memcpy_assessment.issues[].count`, "
                                  "`memcpy_assessment.issues[].percent_of_total`).";
  switch (card.kind) {
    case CardKind::CommOverlap:
      return "Communication time that no compute kernel covers is above the 5% threshold or its "
             "overlap with compute is below the 70% target" +
             comm_source;
    case CardKind::CommVolume:
      return "Exposed communication is above the 5% threshold although the overlap ratio meets "
             "the 70% target" +
             comm_source;
    case CardKind::D2HCopy:
      return "Device-to-host copies exceed the count threshold of 10 or the 5% time-share "
             "threshold" +
             copy_source;
    case CardKind::H2DCopy:
      return "Host-to-device copies exceed the count threshold of 10 or the 5% time-share "
             "threshold" +
             copy_source;
    case CardKind::HostWaitIdle:
      return std::string(
                 "Device-to-host and synchronous copies are followed by GPU idle gaps "
                 "of at least 1% of the GPU time span (source: ") +
             kMetricsFile +
             " → `sync_idle_assessment.idle_after_copies_ms`, `sync_idle_assessment.sources[]`; "
             "the raw trace's GPU timeline).";
    case CardKind::DeviceCopy:
      return "Device-to-device or unclassified copies exceed the count threshold of 10 (with more "
             "than 1% time share) or the 5% time-share threshold" +
             copy_source;
  }
  return {};
}

std::string reasoning(const Card& card) {
  switch (card.kind) {
    case CardKind::CommOverlap:
      return "Collective kernels run while no compute kernel is active, so the GPU timeline waits "
             "on communication.";
    case CardKind::CommVolume:
      return "The total communication volume exceeds the compute available to hide it.";
    case CardKind::D2HCopy:
      return "Each device-to-host copy forces the host to wait for device results before it "
             "continues.";
    case CardKind::H2DCopy:
      return "Host-to-device copies occupy the GPU timeline without overlapping compute.";
    case CardKind::DeviceCopy:
      return "Each copy occupies the GPU timeline and memory bandwidth without producing new "
             "results.";
    case CardKind::HostWaitIdle:
      return "A blocking read of a device result makes the host wait for the GPU to drain; the "
             "GPU then idles until the host has processed the value and launched the next "
             "kernels.";
  }
  return {};
}

std::string resolution(const Card& card, WorkloadMode mode) {
  const bool training = mode == WorkloadMode::Training;
  switch (card.kind) {
    case CardKind::CommOverlap:
      return training ? "Starting each gradient bucket's collective as soon as it is ready lets "
                        "it run underneath the remaining backward kernels, which hides its "
                        "duration."
                      : "A separate communication stream lets collectives proceed while "
                        "independent decode kernels execute, which hides their duration.";
    case CardKind::CommVolume:
      return training ? "Larger buckets reduce per-collective overhead, so the same gradients "
                        "need less exposed time."
                      : "Smaller payloads shorten every collective, so less of it remains "
                        "uncovered.";
    case CardKind::D2HCopy:
      return "Values that stay on the device remove the copy and the wait that comes with it.";
    case CardKind::H2DCopy:
      return "Copies from pinned memory can run asynchronously, so they overlap kernels that do "
             "not depend on them.";
    case CardKind::DeviceCopy:
      return "A copy that is never issued costs no GPU time, so removing redundant copies "
             "shortens the timeline by their duration.";
    case CardKind::HostWaitIdle:
      return "Without the blocking read the host keeps launching ahead of the GPU, so the next "
             "kernels are queued before the copy finishes and the gap closes.";
  }
  return {};
}

fd::Table detail_table(const AnalysisResult& result, const Card& card) {
  fd::Table t{{"Metric", "Value", "Flagged"}, {}};
  if (card.with_idle) {
    t.rows.push_back({"GPU idle after D2H / synchronous copies",
                      fixed(result.sync_idle.idle_after_ms, 3) + " ms (" +
                          std::to_string(result.sync_idle.copies_before_idle) + " gaps)",
                      "true"});
    for (size_t i = 0; i < result.sync_idle.sources.size() && i < 5; ++i) {
      const auto& src = result.sync_idle.sources[i];
      t.rows.push_back({"Idle after copies from " +
                            (src.op_name.empty() ? std::string("(no op)") : src.op_name) + " (" +
                            src.launcher_name + ", " + src.direction + ")",
                        fixed(src.idle_ms, 3) + " ms (" + std::to_string(src.gaps) + " gaps)",
                        "true"});
    }
    if (card.kind == CardKind::HostWaitIdle) return t;
  }
  if (card.kind == CardKind::CommOverlap || card.kind == CardKind::CommVolume) {
    t.rows.push_back({"Exposed Communication",
                      fixed(result.blocking.exposed_ms, 3) + " ms (" +
                          share(result, result.blocking.percent, kExposedCommThreshold) + "%)",
                      bool_text(result.blocking.flagged)});
    t.rows.push_back(
        {"Compute/Comm Overlap", overlap_summary(result), bool_text(result.overlap.flagged)});
    return t;
  }
  for (const auto& issue : card.issues) {
    t.rows.push_back({summary_label(issue.direction),
                      fixed(issue.time_ms, 3) + " ms (" +
                          share(result, issue.percent, kMemcpyShareThreshold) + "%)",
                      "true"});
  }
  t.rows.push_back(
      {"Total Memcpy Events", result.memcpy.total_count.str(), bool_text(result.memcpy.flagged)});
  return t;
}

}  // namespace

std::string card_title(const Card& card, WorkloadMode mode) {
  switch (card.kind) {
    case CardKind::CommOverlap:
      return mode == WorkloadMode::Inference ? "Tensor-parallel collectives stall decode compute"
                                             : "Collective communication is not overlapped with "
                                               "compute";
    case CardKind::CommVolume:
      return "Communication volume dominates despite healthy overlap";
    case CardKind::D2HCopy:
      return "Frequent device-to-host copies";
    case CardKind::H2DCopy:
      return "Host-to-device staging copies";
    case CardKind::DeviceCopy:
      if (covers(card, "D2D") && covers(card, "other")) {
        return "Device-to-device and unclassified memory copies";
      }
      return covers(card, "D2D") ? "Device-to-device copies"
                                 : "Unclassified-direction memory copies";
    case CardKind::HostWaitIdle:
      return "Host reads of device results leave the GPU idle";
  }
  return {};
}

// A number as the metrics round it (half-even, 3 decimals), printed with 3 decimals.
std::string fixed3_rounded(double value) {
  return fixed(py_round(PyNumber::real(value), 3).value(), 3);
}

// S1: the card's saving is the measured idle time after the copies (metrics
// sync_idle_assessment); the scores are the metrics' numbers.
fd::ImpactScores idle_impact(const AnalysisResult& result) {
  const Json j = sync_idle_json(result.sync_idle, result.denominator_ms.value());
  const auto value = [&](const char* key) {
    const Json* v = j.find(key);
    return v == nullptr ? Json() : *v;
  };
  const SyncIdleSavings s = sync_idle_savings(result.sync_idle, result.denominator_ms.value());
  return fd::ImpactScores{
      value("impact_score_low"), value("impact_score"), value("impact_score_high"),
      "impact_score: " + loupe::dump_python_json(value("impact_score"), -1) +
          "; estimated saving " + fixed3_rounded(s.mid_ms) + " ms (high " +
          fixed3_rounded(s.high_ms) +
          (result.sync_idle.host_blocked_ms
               ? std::string(" ms: the idle time the host spent blocked after the copies, an upper "
                             "bound)")
               : std::string(" ms: the idle time measured after the copies, an upper bound, since "
                             "host work done in those gaps stays unless it overlaps GPU work)"))};
}

fd::Document build_findings(const AnalysisResult& result, const std::vector<Card>& cards) {
  fd::Document doc = fd::new_findings(fd::Style::System, "multi_kernel", result.scope,
                                      "Multi-Kernel Issue Analysis Findings");
  doc.sections.push_back(overview(result));
  doc.sections.push_back(summary(result));
  doc.sections.push_back(memcpy_section(result));
  doc.sections.push_back(communication_section(result));
  doc.sections.push_back(patterns_section(result, cards));

  const WorkloadMode mode = result.workload.mode;
  int rank = 0;
  for (const auto& card : cards) {
    ++rank;
    fd::Recommendation rec;
    rec.title = card_title(card, mode);
    rec.insight = (card.kind == CardKind::CommOverlap || card.kind == CardKind::CommVolume)
                      ? comm_insight(result, card.kind)
                      : copy_insight(result, card);
    rec.action = action(card, mode);
    if (card.with_idle && card.kind == CardKind::HostWaitIdle &&
        !result.sync_idle.sources.empty()) {
      rec.action = "Find the " + host_read_hint(result.sync_idle.sources.front().op_name) +
                   " in the step loop. " + rec.action;
    }
    if (card.with_idle) rec.impact = idle_impact(result);
    if (const auto saving = link_saving(card);
        saving && !card.with_idle && result.denominator_ms.value() > 0) {
      rec.impact = link_impact(result, *saving);
      rec.saving_ms = *saving;
      rec.evidence = fd::Evidence::Modeled;
    }
    doc.recommendations.push_back(std::move(rec));

    fd::Detail detail;
    detail.rank = rank;
    detail.title = card_title(card, mode);
    detail.identification = identification(card);
    detail.data.push_back(fd::table(detail_table(result, card)));
    detail.reasoning = reasoning(card);
    detail.resolution = resolution(card, mode);
    doc.details.push_back(std::move(detail));
  }
  if (cards.empty()) {
    doc.sections.push_back(
        {"Outcome",
         {fd::paragraph("No multi-kernel issue crossed a threshold: " +
                        counted(result.memcpy.total_count, "memory copy", "memory copies") + ", " +
                        (result.blocking.evaluated
                             ? "exposed communication at " + exposed_summary(result)
                             : std::string("no communication time")) +
                        ", and " +
                        (result.overlap.evaluated
                             ? "compute/communication overlap at " + overlap_summary(result)
                             : std::string("too little communication to grade overlap")) +
                        ". No recommendation is made.")}});
  }
  return doc;
}

}  // namespace loupe::multi_kernel
