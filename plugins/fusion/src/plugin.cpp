// The kernel fusion analyzer plugin: category kernel_fusion, system tier, fusion findings.
#include "loupe/plugin.hpp"
#include "analysis.hpp"

namespace {

class FusionAnalyzer {
 public:
  static constexpr const char* name = "fusion";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Kernel fusion opportunities: modules that launch several unfused GPU kernels";
  static constexpr loupe::Tier tier = loupe::Tier::System;
  static constexpr std::array<const char*, 1> categories{"kernel_fusion"};
  static constexpr std::array<const char*, 0> reads{};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::fusion::AnalysisOptions options;
    options.compat = ctx.tracelens_compat();
    options.comparative = ctx.scope() == loupe::Scope::Comparative;
    const auto result = loupe::fusion::run_analysis(ctx.model(), options);
    for (const auto& line : result.log) {
      ctx.log(result.error ? loupe::LogLevel::Error : loupe::LogLevel::Info, line);
    }
    ctx.emit_metrics(result.metrics);
    ctx.emit_findings(result.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(FusionAnalyzer)
