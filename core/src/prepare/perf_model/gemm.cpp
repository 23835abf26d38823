// GEMM models (docs/contracts/trace_model.md §3.9.4): aten::mm/addmm/bmm/baddbmm/_scaled_mm.
#include <regex>

#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {

// Transpose flags from the first kernel name the reference parser recognises: a ROCm Tensile
// name (C???_A???_B??? anywhere in it) or an NVIDIA nvjet name (flags = the first two letters
// of the last "_" field). Other libraries' names (cutlass, xmma, CK, …) are not recognised.
std::optional<PyValue> transpose_from_kernels(const std::vector<std::string>& kernel_names) {
  static const std::regex kTensile("C[a-z]{3}_A[a-z]{3}_B[a-z]{3}");
  for (const auto& name : kernel_names) {
    if (std::regex_search(name, kTensile)) {
      const auto flag = [&](std::string_view no, std::string_view yes) {
        if (name.find(no) != std::string::npos) return py_bool(false);
        if (name.find(yes) != std::string::npos) return py_bool(true);
        return py_none();
      };
      return tuple_of({flag("_Ailk_", "_Alik_"), flag("_Bljk_", "_Bjlk_")});
    }
    if (name.starts_with("nvjet")) {
      const std::string_view last = std::string_view(name).substr(name.rfind('_') + 1);
      if (last.size() < 2) fail("nvjet kernel name without transpose letters");
      return tuple_of({py_bool(last[0] == 'T'), py_bool(last[1] == 'T')});
    }
  }
  return std::nullopt;
}

namespace {

std::optional<int> bpe_of(const PyValue& dtype) {
  if (!dtype.is_string()) fail("dtype is not a string");
  return bytes_per_element(dtype.as_string());
}

// vllm::rocm_unquantized_gemm(x[M,K], weight[N,K], bias[N]): a linear layer whose dtype
// triple is (x, weight, bias or ""); the output is written in the bias dtype with a bias, else
// in the weight dtype. Bytes are unknown when any of the dtypes has no size.
FamilyOutput vllm_unquantized_gemm(const OpArgs& args, Direction direction) {
  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape x = shape_of(at(dims, 0, "Input Dims"), "x");
  const Shape weight = shape_of(at(dims, 1, "Input Dims"), "weight");
  if (x.size() < 2 || weight.empty()) fail("linear operands must be [M, K] and [N, K]");
  const bool bias = dims.size() > 2 && !shape_of(at(dims, 2, "Input Dims"), "bias").empty();
  const Json& types = required(args.input_types, "Input type");
  const std::string& dtype_x = string_at(types, 0, "Input type");
  const std::string& dtype_w = string_at(types, 1, "Input type");
  const std::string dtype_bias = types.size() > 2 ? string_at(types, 2, "Input type") : "";
  const std::int64_t m = x[0], n = weight[0], k = x[1];

  FamilyOutput out;
  out.params.emplace_back("M", py_int(m));
  out.params.emplace_back("N", py_int(n));
  out.params.emplace_back("K", py_int(k));
  out.params.emplace_back("bias", py_bool(bias));
  out.params.emplace_back("dtype_A_B",
                          tuple_of({py_str(dtype_x), py_str(dtype_w), py_str(dtype_bias)}));
  out.params.emplace_back("B", py_int(1));
  if (auto transpose = transpose_from_kernels(args.kernel_names)) {
    out.params.emplace_back("transpose", std::move(*transpose));
  }
  out.precision_dtype = dtype_x;
  out.has_precision_dtype = true;
  if (direction == Direction::kBackward) {
    not_implemented("Backward pass for vllm::rocm_unquantized_gemm is not defined.");
  }
  const PyInt M = m, N = n, K = k;
  out.flops = I(2 * M * N * K + (bias ? M * N : 0));
  const std::optional<int> bpe_x = bytes_per_element(dtype_x);
  const std::optional<int> bpe_w = bytes_per_element(dtype_w);
  const std::optional<int> bpe_out = bytes_per_element(bias ? dtype_bias : dtype_w);
  if (bpe_x && bpe_w && bpe_out) {
    out.bytes = I(M * K * *bpe_x + K * N * *bpe_w + M * N * *bpe_out + (bias ? N : 0) * *bpe_out);
  }
  return out;
}

}  // namespace

FamilyOutput gemm_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction) {
  if (model == ModelClass::kVllmUnquantizedGemm) return vllm_unquantized_gemm(args, direction);
  const bool batched = model == ModelClass::kAtenBmm || model == ModelClass::kAtenBaddbmm;
  const bool with_c = model == ModelClass::kAtenAddmm || model == ModelClass::kAtenBaddbmm;
  const std::size_t ia = with_c ? 1 : 0;
  const std::size_t ib = ia + 1;

  const Json& dims = required(args.input_dims, "Input Dims");
  const Shape a = shape_of(at(dims, ia, "Input Dims"), "A");
  const Shape b = shape_of(at(dims, ib, "Input Dims"), "B");
  std::int64_t batch = 1;
  std::int64_t m = 0;
  std::int64_t n = 0;
  std::int64_t k = 0;
  if (batched) {
    if (a.size() != 3 || b.size() != 3) fail("bmm operands must be 3-D");
    batch = a[0];
    m = a[1];
    k = a[2];
    n = b[2];
  } else {
    if (a.size() < 2 || b.size() < 2) fail("mm operands must be 2-D");
    m = a[0];
    n = b[1];
    k = a[1];
  }
  bool bias = with_c;
  if (model == ModelClass::kAtenScaledMm) bias = dims.size() == 3;

  const Json& types = required(args.input_types, "Input type");
  PyValue dtype_a_b = slice_tuple(types, ia, ia + 2);
  PyValue stride_a;
  PyValue stride_b;
  if (!args.input_strides.is_null()) {
    stride_a = py_tuple(at(args.input_strides, ia, "Input Strides"));
    stride_b = py_tuple(at(args.input_strides, ib, "Input Strides"));
  }

  FamilyOutput out;
  if (batched) out.params.emplace_back("B", py_int(batch));
  out.params.emplace_back("M", py_int(m));
  out.params.emplace_back("N", py_int(n));
  out.params.emplace_back("K", py_int(k));
  out.params.emplace_back("bias", py_bool(bias));
  out.params.emplace_back("stride_A", stride_a);
  out.params.emplace_back("stride_B", stride_b);
  out.params.emplace_back("dtype_A_B", dtype_a_b);
  if (!batched) out.params.emplace_back("B", py_int(1));
  if (auto transpose = transpose_from_kernels(args.kernel_names)) {
    out.params.emplace_back("transpose", std::move(*transpose));
  }
  const auto& dtypes = out.params[batched ? 7 : 6].second.items();
  if (!dtypes.empty() && dtypes[0].is_string()) {
    out.precision_dtype = dtypes[0].as_string();
    out.has_precision_dtype = true;
  }

  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }

  const PyInt M = m, N = n, K = k;
  PyInt flops = 2 * M * N * K + (bias ? M * N : 0);
  if (batched) flops *= batch;
  out.flops = I(flops);

  if (dtypes.empty()) fail("dtype_A_B is empty");
  const std::optional<int> bpe = bpe_of(dtypes[0]);
  std::optional<int> bpe_out = bpe;
  if (model == ModelClass::kAtenScaledMm) {
    if (dtypes.size() < 2) fail("dtype_A_B needs two entries");
    if (!bpe || !bpe_of(dtypes[1])) fail("Data types of A and B are not supported");
    bpe_out = *bpe == 1 ? std::optional<int>(2) : (*bpe == 2 || *bpe == 4) ? bpe : std::nullopt;
  }
  if (bpe && bpe_out) {
    PyInt bytes = M * K * *bpe + K * N * *bpe + M * N * *bpe_out + (bias ? N : 0) * *bpe;
    if (batched) bytes *= batch;
    out.bytes = I(bytes);
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
