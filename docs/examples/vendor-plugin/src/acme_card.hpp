// What both Acme analyzers report: one card over the rows of an ops table (a
// category_data/<cat>_ops.csv), claiming their GPU ops (by the rows' ex_UID) with a modeled
// saving of `share` of their kernel time, and the metrics document beside it.
#pragma once

#include <cstdint>
#include <string>

#include "loupe/plugin.hpp"

namespace acme {

inline void report_rows(loupe::AnalysisContext& ctx, const std::string& table_name,
                        const std::string& title, double share) {
  namespace fd = loupe::findings;
  const std::string category(ctx.category());
  const auto table = ctx.model().table(table_name);
  loupe::Json metrics = loupe::Json::object();
  metrics["category"] = category;
  auto doc = fd::new_findings(fd::Style::Compute, category, ctx.scope(), "Acme findings");
  if (table.rows() == 0) {
    metrics["status"] = "NO_DATA";
    metrics["category_findings"] = loupe::Json::array();
    doc.status = fd::Status::NoData;
    doc.message = "No op of the trace is in " + table_name + ".";
    ctx.emit_metrics(metrics);
    ctx.emit_findings(doc);
    return;
  }
  fd::Recommendation card;
  card.title = title;
  card.library = "AcmeBLAS";
  card.insight = "These ops run kernels that AcmeBLAS has tuned variants of.";
  card.action = "Install AcmeBLAS and set ACME_BLAS_TUNED=1.";
  double kernel_us = 0.0;
  for (std::size_t r = 0; r < table.rows(); ++r) {
    kernel_us += table.cell(r, "Kernel Time (µs)_sum").number;
    card.claims.op_groups.push_back(static_cast<std::int64_t>(table.cell(r, "ex_UID").number));
  }
  const double ms = kernel_us / 1000.0;
  card.saving_ms = fd::SavingMs{ms * share / 2, ms * share, ms * share * 1.5};
  card.evidence = fd::Evidence::Modeled;
  card.impact = fd::ImpactScores{loupe::Json(1.0), loupe::Json(2.0), loupe::Json(3.0)};
  card.impact->text = "impact_score: 2.0";
  doc.recommendations.push_back(card);
  fd::Detail detail;
  detail.rank = 1;
  detail.title = title;
  detail.identification = "The rows of `" + table_name + "`.";
  const std::string first(table.cell(0, "name").text);
  detail.data.push_back(fd::table({{"Operation", "Args", "Kernel Path", "Kernel Name", "Time (ms)",
                                    "%E2E", "Count", "FLOPS/Byte", "Efficiency", "Bound"},
                                   {{first, "-", first, "-", std::to_string(ms), "-",
                                     std::to_string(table.rows()), "-", "-", "-"}}}));
  detail.reasoning = "AcmeBLAS's tuned kernels cut these kernels' time by the modeled share.";
  detail.resolution = "Install AcmeBLAS.";
  detail.estimate = fd::DetailEstimate{loupe::Json(1.0), loupe::Json(3.0), {"Low 1.0", "High 3.0"}};
  doc.details.push_back(detail);
  metrics["status"] = "OK";
  metrics["rows"] = static_cast<std::int64_t>(table.rows());
  metrics["kernel_time_us"] = kernel_us;
  loupe::Json finding = loupe::Json::object();
  finding["rank"] = 1;
  loupe::Json findings = loupe::Json::array();
  findings.push_back(finding);
  metrics["category_findings"] = findings;
  ctx.emit_metrics(metrics);
  ctx.emit_findings(doc);
}

}  // namespace acme
