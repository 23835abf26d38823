// The convolution analyzer plugin: categories conv_fwd and conv_bwd, compute tier.
#include "loupe/plugin.hpp"
#include "conv_analyzer.hpp"
#include "loupe/compute/plugin_bridge.hpp"

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
    loupe::compute::emit_category_run(
        ctx, loupe::conv::run_conv_analysis(
                 ctx.model(), loupe::compute::run_options<loupe::conv::ConvRunOptions>(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(ConvAnalyzer)
