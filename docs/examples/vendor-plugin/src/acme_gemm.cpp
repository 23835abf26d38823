// A contributing GEMM analyzer (docs/plugin-abi.md, "Contributing analyzers"): it runs after the
// bundled gemm analyzer, reads the same category_data/gemm_ops.csv, and adds its own card.
#include <array>

#include "acme_card.hpp"

namespace {

class AcmeGemm {
 public:
  static constexpr const char* name = "acme_gemm";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description = "AcmeBLAS: tuned GEMM variants (contributes to gemm)";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 0> categories{};
  static constexpr std::array<const char*, 0> reads{};
  static constexpr std::array<const char*, 1> contributes{"gemm"};

  void analyze(loupe::AnalysisContext& ctx) {
    acme::report_rows(ctx, "category_data/gemm_ops.csv",
                      "AcmeBLAS has tuned variants of these GEMMs", 0.1);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(AcmeGemm)
