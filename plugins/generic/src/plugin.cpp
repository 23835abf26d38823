// The generic-op analyzer plugin: uncategorized compute operations (other, multi_tensor_apply,
// moe_aux, rope_fwd), every category whose manifest skill is generic-op-analyzer, and the fallback
// for any compute category no other plugin claims.
#include "loupe/plugin.hpp"
#include "generic_analyzer.hpp"

namespace {

class GenericOpAnalyzer {
 public:
  static constexpr const char* name = "generic";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Uncategorized GPU operations: time, roofline efficiency where modeled, what each op is and "
      "ranked findings (other, multi_tensor_apply, moe_aux, rope_fwd, and any unclaimed compute "
      "category)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 4> categories{"other", "multi_tensor_apply", "moe_aux",
                                                         "rope_fwd"};
  static constexpr std::array<const char*, 1> skills{"generic-op-analyzer"};
  static constexpr bool fallback = true;
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::generic::GenericRunOptions options;
    options.category = std::string(ctx.category());
    options.comparative = ctx.scope() == loupe::Scope::Comparative;
    options.tracelens_compat = ctx.tracelens_compat();
    const auto run = loupe::generic::run_generic_analysis(ctx.model(), options);
    for (const auto& message : run.console) ctx.log(loupe::LogLevel::Info, message);
    for (const auto& warning : run.analysis.warnings) ctx.log(loupe::LogLevel::Warn, warning);
    if (run.analysis.status == loupe::compute::AnalysisStatus::Error) {
      ctx.log(loupe::LogLevel::Error, "Error: " + run.analysis.message);
    }
    ctx.emit_metrics(run.analysis.metrics);
    ctx.emit_findings(run.findings);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(GenericOpAnalyzer)
