// A vendor plugin for the vendor-category tests (docs/plugin-abi.md, "Vendor categories"): it
// declares one category with one selector, both given at compile time by the generated
// vendor_category_config.h (LOUPE_VENDOR_NAME, LOUPE_VENDOR_CATEGORY, LOUPE_VENDOR_KERNEL_PATTERN,
// LOUPE_VENDOR_OP_PATTERN: string literals or nullptr; tests/plugins/CMakeLists.txt), reads
// category_data/<cat>_ops.csv and reports what it holds: metrics with the rows, their ex_UIDs and
// their summed `Kernel Time (µs)_sum`, and one card that claims every row's GPU ops with a saving
// of 20 % of that time (NO_DATA when the table is empty).
#include <array>
#include <string>

#include "loupe/plugin.hpp"
#include "vendor_category_config.h"

namespace {

using loupe::Json;
namespace fd = loupe::findings;

class VendorCategoryPlugin {
 public:
  static constexpr const char* name = LOUPE_VENDOR_NAME;
  static constexpr const char* version = "2.1.0";
  static constexpr const char* description = "vendor category test plugin";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 1> categories{LOUPE_VENDOR_CATEGORY};
  static constexpr std::array<const char*, 0> reads{};
  static constexpr std::array<loupe::CategorySelector, 1> selectors{
      {{LOUPE_VENDOR_CATEGORY, LOUPE_VENDOR_KERNEL_PATTERN, LOUPE_VENDOR_OP_PATTERN, 0}}};

  void analyze(loupe::AnalysisContext& ctx) {
    const std::string category(ctx.category());
    const auto table = ctx.model().table("category_data/" + category + "_ops.csv");
    Json metrics = Json::object();
    metrics["category"] = category;
    double kernel_us = 0.0;
    Json uids = Json::array();
    fd::Recommendation card;
    card.title = "Vendor library kernels have a faster variant";
    card.library = "VendorLib";
    card.insight = "The vendor's kernels of this run have a tuned variant.";
    card.action = "Switch to the tuned variant.";
    for (std::size_t r = 0; r < table.rows(); ++r) {
      kernel_us += table.cell(r, "Kernel Time (µs)_sum").number;
      const auto uid = static_cast<std::int64_t>(table.cell(r, "ex_UID").number);
      uids.push_back(uid);
      card.claims.op_groups.push_back(uid);
    }
    metrics["rows"] = static_cast<std::int64_t>(table.rows());
    metrics["kernel_time_us"] = kernel_us;
    metrics["ex_uids"] = uids;
    auto doc = fd::new_findings(fd::Style::Compute, category, ctx.scope(), "Vendor findings");
    if (table.rows() == 0) {
      metrics["status"] = "NO_DATA";
      metrics["category_findings"] = Json::array();
      doc.status = fd::Status::NoData;
      doc.message = "No op of the trace is in this vendor category.";
      ctx.emit_metrics(metrics);
      ctx.emit_findings(doc);
      return;
    }
    metrics["status"] = "OK";
    const double ms = kernel_us / 1000.0;
    card.saving_ms = fd::SavingMs{ms * 0.1, ms * 0.2, ms * 0.3};
    card.evidence = fd::Evidence::Modeled;
    card.impact = fd::ImpactScores{Json(1.0), Json(2.0), Json(3.0)};
    card.impact->text = "impact_score: 2.0";
    doc.recommendations.push_back(card);
    fd::Detail d;
    d.rank = 1;
    d.title = card.title;
    d.identification = "The vendor category's ops (`" + category + "_ops.csv`).";
    const std::string first_op(table.cell(0, "name").text);
    d.data.push_back(fd::table({{"Operation", "Args", "Kernel Path", "Kernel Name", "Time (ms)",
                                 "%E2E", "Count", "FLOPS/Byte", "Efficiency", "Bound"},
                                {{first_op, "-", first_op, "vendor kernels", std::to_string(ms),
                                  "-", std::to_string(table.rows()), "-", "-", "-"}}}));
    d.reasoning = "Synthetic.";
    d.resolution = "Synthetic.";
    d.estimate = fd::DetailEstimate{Json(1.0), Json(3.0), {"Low 1.0", "High 3.0"}};
    doc.details.push_back(d);
    Json finding = Json::object();
    finding["rank"] = 1;
    Json list = Json::array();
    list.push_back(finding);
    metrics["category_findings"] = list;
    ctx.emit_metrics(metrics);
    ctx.emit_findings(doc);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(VendorCategoryPlugin)
