// The attention analyzer plugin: sdpa_fwd, sdpa_bwd, inferenceattention and every category
// whose manifest skill is sdpa-analyzer; compute tier.
#include "loupe/plugin.hpp"
#include "loupe/compute/plugin_bridge.hpp"
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
    loupe::compute::emit_category_run(
        ctx, loupe::sdpa::run_sdpa_analysis(
                 ctx.model(), loupe::compute::run_options<loupe::sdpa::SdpaRunOptions>(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(SdpaAnalyzer)
