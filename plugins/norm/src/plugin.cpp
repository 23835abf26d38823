// The Normalization analyzer plugin: categories norm, norm_fwd, norm_bwd, rmsnorm, compute tier.
#include "loupe/plugin.hpp"
#include "loupe/compute/plugin_bridge.hpp"
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
    loupe::compute::emit_category_run(
        ctx, loupe::norm::run_norm_analysis(ctx.model(), loupe::compute::run_options(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(NormAnalyzer)
