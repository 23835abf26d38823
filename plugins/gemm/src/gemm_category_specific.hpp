// The GEMM category_specific block and per-operation classification (TraceLens layout):
// quantized-op count, ops without a perf model, and the bf16 / HBM peaks.
#pragma once

#include <string_view>

#include "loupe/compute/category_inputs.hpp"
#include "loupe/json_value.hpp"

namespace loupe::gemm {

// An op name that marks a quantized GEMM (w8a8, int8, fp8, w4a16, w4a4, fp4, mxfp4).
bool is_quantized_gemm(std::string_view op_name);

// {"is_quantized": bool, "gemm_type": "quantized" | "regular"}.
Json classify_gemm(const std::string& op_name);

Json gemm_category_specific(const compute::CategoryInputs& inputs);

}  // namespace loupe::gemm
