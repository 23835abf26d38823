// AITER's manifold hyper-connection kernels (DeepSeek-V4 mHC, category and sheet "mHC") and
// its top-k softplus router (MoE_aux), after TraceLens's classes (docs/deviations.md,
// "Serving-engine ops"). For M tokens, n residual streams of width C, the projection fn
// [hc3 = n² + 2n, K = n·C] and split-K partials:
//   post:           flops 2·M·n·C·(n+1); bytes x M·C + residual M·n·C + mixes (M·n + M·n²)·4
//                   + next residual M·n·C;
//   pre GEMM:       flops 2·M·hc3·K; bytes x M·n·C + fn hc3·K·4 + partials split_k·M·(hc3+1)·4;
//   pre epilogue:   flops 2·M·C·n + 5·M·C; bytes residual M·n·C + partials split_k·M·hc3·4 +
//                   norm weight C + layer input M·C + mixes (M·n + M·n²)·4;
//   post + pre:     the post and pre-GEMM flops; bytes layer input M·C, residual and next
//                   residual (written and read back) 3·M·n·C, mixes, fn, partials;
//   topk_softplus:  flops 6·M·E; bytes gating M·E + bias E·4 + weights and ids 2·M·k·4.
// Activations are in the input dtype's width (bf16 when the op records none), the rest fp32.
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// Input Dims[i][j] (IndexError -> fail).
std::int64_t dim(const Json& dims, std::size_t i, std::size_t j) {
  const Shape shape = shape_of(at(dims, i, "Input Dims"), "mHC operand");
  if (j >= shape.size()) fail("mHC operand has too few dimensions");
  return shape[j];
}

struct Mhc {
  std::int64_t m = 0, n = 0, c = 0;
  std::optional<std::int64_t> hc3, k, split_k, experts, topk;
  std::string dtype_in;
};

Mhc read_mhc(ModelClass model, const OpArgs& args) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Json& types = args.input_types;
  const auto dtype = [&](std::size_t i) {
    return types.is_array() && types.size() > i ? string_at(types, i, "Input type")
                                                : std::string("c10::BFloat16");
  };
  Mhc h;
  switch (model) {
    case ModelClass::kMhcPost:  // (out [M,n,C], x [M,C], residual, post_mix, comb_mix, …)
      h.m = dim(dims, 1, 0), h.c = dim(dims, 1, 1), h.n = dim(dims, 0, 1);
      h.dtype_in = dtype(1);
      break;
    case ModelClass::kMhcPreGemmSqrsum:  // (out [split_k,M,hc3], sqrsum, x [M,n,C], fn [hc3,K])
      h.m = dim(dims, 2, 0), h.n = dim(dims, 2, 1), h.c = dim(dims, 2, 2);
      h.hc3 = dim(dims, 3, 0), h.k = dim(dims, 3, 1), h.split_k = dim(dims, 0, 0);
      h.dtype_in = dtype(2);
      break;
    case ModelClass::kMhcPreBigFuseRmsnorm:  // (post_mix [M,n,1], comb_mix, out [M,C],
                                             //  gemm_out [split_k,M,hc3], …, hc_base [hc3], …)
      h.m = dim(dims, 2, 0), h.c = dim(dims, 2, 1), h.n = dim(dims, 0, 1);
      h.hc3 = dim(dims, 6, 0), h.split_k = dim(dims, 3, 0);
      h.dtype_in = dtype(7);
      break;
    case ModelClass::kMhcFusedPostPreGemm:  // (gemm_out, sqrsum, next_residual [M,n,C],
                                            //  layer_input [M,C], …, fn [hc3,K] = [7], …)
      h.m = dim(dims, 3, 0), h.c = dim(dims, 3, 1), h.n = dim(dims, 2, 1);
      h.hc3 = dim(dims, 7, 0), h.k = dim(dims, 7, 1), h.split_k = dim(dims, 0, 0);
      h.dtype_in = dtype(3);
      break;
    default:  // kTopkSoftplus: (topk_weights [M,k], topk_indices, gating_output [M,E], …)
      h.m = dim(dims, 2, 0), h.experts = dim(dims, 2, 1), h.topk = dim(dims, 0, 1);
      h.n = 1, h.c = *h.experts;
      h.dtype_in = dtype(2);
      break;
  }
  return h;
}

void emit_params(ModelClass model, const Mhc& h, FamilyOutput& out) {
  out.params.emplace_back("M", py_int(h.m));
  out.params.emplace_back("n", py_int(h.n));
  out.params.emplace_back("C", py_int(h.c));
  if (model == ModelClass::kTopkSoftplus) {
    out.params.emplace_back("E", py_int(*h.experts));
    out.params.emplace_back("topk", py_int(*h.topk));
  } else {
    out.params.emplace_back("hc3", h.hc3 ? py_int(*h.hc3) : py_none());
    if (h.k) out.params.emplace_back("K", py_int(*h.k));
    if (h.split_k) out.params.emplace_back("split_k", py_int(*h.split_k));
  }
  out.params.emplace_back("dtype_in", py_str(h.dtype_in));
}

}  // namespace

FamilyOutput mhc_model(ModelClass model, std::string_view name, const OpArgs& args,
                       Direction direction) {
  const Mhc h = read_mhc(model, args);
  FamilyOutput out;
  emit_params(model, h, out);
  if (!h.dtype_in.empty()) {
    out.precision_dtype = h.dtype_in;
    out.has_precision_dtype = true;
  }
  if (direction == Direction::kBackward) {
    fail(std::string("no backward model for ").append(name));  // no flops_bwd in TraceLens
  }
  const PyInt M = h.m, n = h.n, C = h.c;
  const PyInt hc3 = h.hc3.value_or(0), K = h.k.value_or(0), split = h.split_k.value_or(0);
  const PyInt mixes = M * n * 4 + M * n * n * 4;  // fp32 post and combination mixes
  const auto bpe_known = bytes_per_element(h.dtype_in);
  const PyInt bpe = bpe_known.value_or(0);
  PyInt flops = 0, bytes = 0;
  switch (model) {
    case ModelClass::kMhcPost:
      flops = 2 * M * n * C * (n + 1);
      bytes = M * C * bpe + M * n * C * bpe + mixes + M * n * C * bpe;
      break;
    case ModelClass::kMhcPreGemmSqrsum:
      flops = 2 * M * hc3 * K;
      bytes = M * n * C * bpe + hc3 * K * 4 + split * M * hc3 * 4 + split * M * 4;
      break;
    case ModelClass::kMhcPreBigFuseRmsnorm:
      flops = 2 * M * C * n + 5 * M * C;
      bytes = M * n * C * bpe + split * M * hc3 * 4 + C * bpe + M * C * bpe + mixes;
      break;
    case ModelClass::kMhcFusedPostPreGemm:
      flops = 2 * M * n * C * (n + 1) + 2 * M * hc3 * K;
      bytes = M * C * bpe + 3 * (M * n * C * bpe) + mixes + hc3 * K * 4 + split * M * hc3 * 4 +
              split * M * 4;
      break;
    default: {  // kTopkSoftplus
      const PyInt E = *h.experts, k = *h.topk;
      flops = 6 * M * E;
      bytes = M * E * bpe + E * 4 + M * k * 4 + M * k * 4;
      break;
    }
  }
  out.flops = I(flops);
  if (bpe_known) out.bytes = I(bytes);
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
