// The GEMM analyzer plugin: category gemm, compute tier.
#include "loupe/plugin.hpp"
#include "gemm_analyzer.hpp"
#include "loupe/compute/plugin_bridge.hpp"

namespace {

class GemmAnalyzer {
 public:
  static constexpr const char* name = "gemm";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description =
      "GEMM efficiency against the roofline, shape-driven actions (padding, split-K, batching) "
      "and ranked findings (gemm)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 1> categories{"gemm"};
  static constexpr std::array<const char*, 1> skills{"gemm-analyzer"};
  static constexpr std::array<const char*, 1> reads{"kernel_fusion"};

  void analyze(loupe::AnalysisContext& ctx) {
    loupe::compute::emit_category_run(
        ctx, loupe::gemm::run_gemm_analysis(ctx.model(), loupe::compute::run_options(ctx)));
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(GemmAnalyzer)
