#include "conv_library_rules.hpp"

namespace loupe::conv {

const std::vector<compute::LibraryRule>& conv_library_rules() {
  static const std::vector<compute::LibraryRule> kRules{
      // MIOpen convolution solvers and their helper kernels.
      {"igemm_", "MIOpen", false},
      {"naive_conv", "MIOpen", false},
      {"gtcx", "MIOpen", false},
      {"MIOpen", "MIOpen", false},
      {"miopen", "MIOpen", false},
      {"Im2d2Col", "MIOpen", false},
      {"SubTensorOp", "MIOpen", true},
      {"batched_transpose", "MIOpen", true},
      {"transpose_NCHW2CNHW", "MIOpen", true},
      {"transpose_CNHW2NCHW", "MIOpen", true},
      // cuDNN implicit-GEMM convolution kernels.
      {"xmma_fprop", "cuDNN", false},
      {"xmma_dgrad", "cuDNN", false},
      {"xmma_wgrad", "cuDNN", false},
      {"implicit_convolve", "cuDNN", false},
      {"fprop_implicit_gemm", "cuDNN", false},
  };
  return kRules;
}

}  // namespace loupe::conv
