// The convolution analyzer plugin: categories conv_fwd and conv_bwd, compute tier.
#include "loupe/plugin.hpp"
#include "conv_analyzer.hpp"

namespace {

class ConvAnalyzer {
 public:
  static constexpr const char* name = "conv";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Convolution efficiency against the roofline, layout-transform overhead and ranked "
      "findings (conv_fwd, conv_bwd)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 2> categories{"conv_fwd", "conv_bwd"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::conv::ConvRunOptions options;
    options.category = std::string(ctx.category());
    options.comparative = ctx.scope() == loupe::Scope::Comparative;
    options.tracelens_compat = ctx.tracelens_compat();
    const auto run = loupe::conv::run_conv_analysis(ctx.model(), options);
    for (const auto& warning : run.analysis.warnings) ctx.log(loupe::LogLevel::Warn, warning);
    if (run.analysis.status == loupe::compute::AnalysisStatus::Error) {
      ctx.log(loupe::LogLevel::Error, "Error: " + run.analysis.message);
    }
    ctx.emit_metrics(run.analysis.metrics);
    ctx.emit_findings(run.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(ConvAnalyzer)
