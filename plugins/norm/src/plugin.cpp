// The Normalization analyzer plugin: categories norm, norm_fwd, norm_bwd, rmsnorm, compute tier.
#include "loupe/plugin.hpp"
#include "norm_analyzer.hpp"

namespace {

class NormAnalyzer {
 public:
  static constexpr const char* name = "norm";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Normalization bandwidth against the roofline, fused-norm actions and ranked findings (norm, "
      "norm_fwd, norm_bwd, rmsnorm)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 4> categories{"norm", "norm_fwd", "norm_bwd", "rmsnorm"};
  static constexpr std::array<const char*, 1> skills{"norm-analyzer"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::compute::CategoryRunOptions options;
    options.category = std::string(ctx.category());
    options.comparative = ctx.scope() == loupe::Scope::Comparative;
    options.tracelens_compat = ctx.tracelens_compat();
    const auto run = loupe::norm::run_norm_analysis(ctx.model(), options);
    for (const auto& warning : run.analysis.warnings) ctx.log(loupe::LogLevel::Warn, warning);
    if (run.analysis.status == loupe::compute::AnalysisStatus::Error) {
      ctx.log(loupe::LogLevel::Error, "Error: " + run.analysis.message);
    }
    ctx.emit_metrics(run.analysis.metrics);
    ctx.emit_findings(run.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(NormAnalyzer)
