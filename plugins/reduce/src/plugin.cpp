// The Reduce analyzer plugin: categories reduce, compute tier.
#include "loupe/plugin.hpp"
#include "loupe/compute/plugin_bridge.hpp"
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
    loupe::compute::emit_category_run(
        ctx, loupe::reduce::run_reduce_analysis(ctx.model(), loupe::compute::run_options(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(ReduceAnalyzer)
