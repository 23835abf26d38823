// The Elementwise analyzer plugin: categories elementwise, compute tier.
#include "loupe/plugin.hpp"
#include "elementwise_analyzer.hpp"
#include "loupe/compute/plugin_bridge.hpp"

namespace {

class ElementwiseAnalyzer {
 public:
  static constexpr const char* name = "elementwise";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Elementwise-op bandwidth against the roofline, fusion and batching actions and ranked "
      "findings (elementwise)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 1> categories{"elementwise"};
  static constexpr std::array<const char*, 1> skills{"elementwise-analyzer"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::compute::emit_category_run(ctx, loupe::elementwise::run_elementwise_analysis(
                                               ctx.model(), loupe::compute::run_options(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(ElementwiseAnalyzer)
