// The attention analyzer plugin: sdpa_fwd, sdpa_bwd, inferenceattention and every category
// whose manifest skill is sdpa-analyzer; compute tier.
#include "loupe/plugin.hpp"
#include "sdpa_analyzer.hpp"

namespace {

class SdpaAnalyzer {
 public:
  static constexpr const char* name = "sdpa";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Attention efficiency against the roofline, flash / paged / unfused detection, sequence "
      "lengths and head dims, and ranked findings (sdpa_fwd, sdpa_bwd, inferenceattention)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 3> categories{"sdpa_fwd", "sdpa_bwd",
                                                         "inferenceattention"};
  static constexpr std::array<const char*, 1> skills{"sdpa-analyzer"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::sdpa::SdpaRunOptions options;
    options.category = std::string(ctx.category());
    options.comparative = ctx.scope() == loupe::Scope::Comparative;
    options.tracelens_compat = ctx.tracelens_compat();
    const auto run = loupe::sdpa::run_sdpa_analysis(ctx.model(), options);
    for (const auto& warning : run.analysis.warnings) ctx.log(loupe::LogLevel::Warn, warning);
    if (run.analysis.status == loupe::compute::AnalysisStatus::Error) {
      ctx.log(loupe::LogLevel::Error, "Error: " + run.analysis.message);
    }
    ctx.emit_metrics(run.analysis.metrics);
    ctx.emit_findings(run.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(SdpaAnalyzer)
