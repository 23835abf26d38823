// The MoE analyzer plugin: categories moe_fused, moe_unfused, compute tier.
#include "loupe/plugin.hpp"
#include "loupe/compute/plugin_bridge.hpp"
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
    loupe::compute::emit_category_run(
        ctx, loupe::moe::run_moe_analysis(ctx.model(), loupe::compute::run_options(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(MoeAnalyzer)
