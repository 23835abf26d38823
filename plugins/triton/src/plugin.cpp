// The Triton analyzer plugin: categories triton, compute tier.
#include "loupe/plugin.hpp"
#include "loupe/compute/plugin_bridge.hpp"
#include "triton_analyzer.hpp"

namespace {

class TritonAnalyzer {
 public:
  static constexpr const char* name = "triton";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "Triton kernel efficiency against the roofline by inductor kernel type, autotuning actions "
      "and ranked findings (triton)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 1> categories{"triton"};
  static constexpr std::array<const char*, 1> skills{"triton-analyzer"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::compute::emit_category_run(
        ctx, loupe::triton::run_triton_analysis(ctx.model(), loupe::compute::run_options(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(TritonAnalyzer)
