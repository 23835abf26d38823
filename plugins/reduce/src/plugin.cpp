// The Reduce analyzer plugin: categories reduce, compute tier.
#include "loupe/plugin.hpp"
#include "reduce_analyzer.hpp"

namespace {

class ReduceAnalyzer {
 public:
  static constexpr const char* name = "reduce";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Reduction bandwidth against the roofline, softmax and fusion actions and ranked findings "
      "(reduce)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 1> categories{"reduce"};
  static constexpr std::array<const char*, 1> skills{"reduce-analyzer"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::compute::CategoryRunOptions options;
    options.category = std::string(ctx.category());
    options.comparative = ctx.scope() == loupe::Scope::Comparative;
    options.tracelens_compat = ctx.tracelens_compat();
    const auto run = loupe::reduce::run_reduce_analysis(ctx.model(), options);
    for (const auto& warning : run.analysis.warnings) ctx.log(loupe::LogLevel::Warn, warning);
    if (run.analysis.status == loupe::compute::AnalysisStatus::Error) {
      ctx.log(loupe::LogLevel::Error, "Error: " + run.analysis.message);
    }
    ctx.emit_metrics(run.analysis.metrics);
    ctx.emit_findings(run.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(ReduceAnalyzer)
