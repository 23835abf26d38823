// The generic-op analyzer plugin: uncategorized compute operations (other, multi_tensor_apply,
// moe_aux, rope_fwd), every category whose manifest skill is generic-op-analyzer, and the fallback
// for any compute category no other plugin claims.
#include "loupe/plugin.hpp"
#include "generic_analyzer.hpp"
#include "loupe/compute/plugin_bridge.hpp"

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
    const auto run = loupe::generic::run_generic_analysis(
        ctx.model(), loupe::compute::run_options<loupe::generic::GenericRunOptions>(ctx));
    for (const auto& message : run.console) ctx.log(loupe::LogLevel::Info, message);
    loupe::compute::emit_category_run(ctx, run);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(GenericOpAnalyzer)
