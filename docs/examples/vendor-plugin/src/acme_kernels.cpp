// A vendor category (docs/plugin-abi.md, "Vendor categories"): every op whose GPU kernels are
// Acme's (kernel names starting acme_ or Cijk_) becomes category_data/acme_kernels_ops.csv when
// `loupe analyze --trace` runs, and this plugin is its primary analyzer.
#include <array>

#include "acme_card.hpp"

namespace {

class AcmeKernels {
 public:
  static constexpr const char* name = "acme_kernels";
  static constexpr const char* version = "1.0.0";
  static constexpr const char* description = "Acme's kernels, selected from the trace by name";
  static constexpr loupe::Tier tier = loupe::Tier::Compute;
  static constexpr std::array<const char*, 1> categories{"acme_kernels"};
  static constexpr std::array<const char*, 0> reads{};
  static constexpr std::array<loupe::CategorySelector, 1> selectors{
      {{"acme_kernels", "acme_*|Cijk_*", nullptr, 0}}};

  void analyze(loupe::AnalysisContext& ctx) {
    acme::report_rows(ctx, "category_data/acme_kernels_ops.csv",
                      "Acme kernels have faster variants", 0.2);
  }
};

}  // namespace

LOUPE_REGISTER_PLUGIN(AcmeKernels)
