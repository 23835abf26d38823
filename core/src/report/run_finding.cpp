#include "loupe/core/report/run_finding.hpp"

#include "report_text.hpp"

namespace loupe::core {

namespace {

using report_detail::member_of;
using report_detail::number_at;
using report_detail::text_at;

std::optional<SavingRange> saving_range(const Json& finding) {
  const Json& ms = member_of(finding, "saving_ms");
  const auto mid = number_at(ms, "mid");
  if (!mid) return std::nullopt;
  return SavingRange{number_at(ms, "low").value_or(*mid), *mid,
                     number_at(ms, "high").value_or(*mid)};
}

std::string explaining_file(const Json& finding) {
  const Json& files = member_of(member_of(finding, "sources"), "files");
  if (!files.is_array() || files.size() < 2 || !files.as_array()[1].is_string()) return {};
  return files.as_array()[1].as_string();
}

RunFinding read_finding(const Json& f) {
  RunFinding out;
  out.id = text_at(f, "id");
  out.priority = report_detail::int_or_zero(f, "priority");
  out.category = text_at(f, "category");
  out.tier = text_at(f, "tier");
  out.title = text_at(f, "title");
  out.saving_ms = saving_range(f);
  out.saving_percent_mid = number_at(member_of(f, "saving_percent_of_e2e"), "mid");
  out.evidence = findings::evidence_from_string(text_at(f, "evidence"));
  out.step_gain_ms = number_at(member_of(f, "what_if"), "step_gain_ms");
  const Json& parts = member_of(f, "parts");
  out.merged_parts = parts.is_array() ? parts.size() : 0;
  out.findings_file = explaining_file(f);
  return out;
}

}  // namespace

RunFindings read_run_findings(const Json& document) {
  RunFindings out;
  const Json& findings = member_of(document, "findings");
  if (findings.is_array()) {
    for (const Json& f : findings.as_array()) {
      if (f.is_object()) out.findings.push_back(read_finding(f));
    }
  }
  const Json& run = member_of(document, "run");
  out.total_time_ms = number_at(run, "total_time_ms");
  out.idle_time_percent = number_at(run, "idle_time_percent");
  out.exposed_comm_time_percent = number_at(run, "exposed_comm_time_percent");
  const Json& ledger = member_of(document, "ledger");
  out.combined_step_gain_ms = number_at(ledger, "combined_step_gain_ms");
  out.combined_saving_sum_ms = number_at(ledger, "combined_saving_sum_ms");
  out.step_checked = report_detail::int_or_zero(ledger, "step_checked");
  const Json& capture = member_of(document, "capture_findings");
  out.capture_findings = capture.is_array() ? capture.size() : 0;
  const Json& coverage = member_of(document, "coverage");
  const Json& ops = member_of(coverage, "ops");
  out.unmodeled_ops = ops.is_array() ? ops.size() : 0;
  out.unmodeled_time_ms = number_at(coverage, "unmodeled_time_ms");
  return out;
}

}  // namespace loupe::core
