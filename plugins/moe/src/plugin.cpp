// The MoE analyzer plugin: categories moe_fused, moe_unfused, compute tier.
#include "loupe/plugin.hpp"
#include "moe_analyzer.hpp"

namespace {

class MoeAnalyzer {
 public:
  static constexpr const char* name = "moe";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Mixture-of-experts kernel efficiency against the roofline, fused-MoE and grouped-GEMM "
      "actions and ranked findings (moe_fused, moe_unfused)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 2> categories{"moe_fused", "moe_unfused"};
  static constexpr std::array<const char*, 1> skills{"moe-analyzer"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::compute::CategoryRunOptions options;
    options.category = std::string(ctx.category());
    options.comparative = ctx.scope() == loupe::Scope::Comparative;
    options.tracelens_compat = ctx.tracelens_compat();
    const auto run = loupe::moe::run_moe_analysis(ctx.model(), options);
    for (const auto& warning : run.analysis.warnings) ctx.log(loupe::LogLevel::Warn, warning);
    if (run.analysis.status == loupe::compute::AnalysisStatus::Error) {
      ctx.log(loupe::LogLevel::Error, "Error: " + run.analysis.message);
    }
    ctx.emit_metrics(run.analysis.metrics);
    ctx.emit_findings(run.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(MoeAnalyzer)
