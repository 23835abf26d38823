// Internal helpers shared by the per-family models: Python-like access to the trace args
// (IndexError/KeyError/TypeError become ModelError::kFailed), Python int/float arithmetic, and
// Python value builders for the parameter list.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/perf_model.hpp"

namespace loupe::core::prepare::perf::detail {

using compute::PyValue;

// Thrown by the models; evaluate() turns it into ModelResult::error.
struct ModelException {
  ModelError kind;
  std::string message;
};
[[noreturn]] void fail(std::string message);
[[noreturn]] void not_implemented(std::string message);

using Shape = std::vector<std::int64_t>;

// list[i] (IndexError/TypeError -> fail).
const Json& at(const Json& list, std::size_t i, std::string_view what);
// The args value itself (KeyError -> fail when null).
const Json& required(const Json& value, std::string_view what);
// tuple(v) of a list of ints.
Shape shape_of(const Json& v, std::string_view what);
// A string element (dtype / concrete input).
const std::string& string_at(const Json& list, std::size_t i, std::string_view what);
// Python `x is not None` for a list element.
bool is_not_none(const Json& list, std::size_t i, std::string_view what);

// Python values.
PyValue py(const Json& v);         // JSON -> Python (arrays become lists)
PyValue py_tuple(const Json& v);   // tuple(v)
PyValue py_tuple(const Shape& v);  // tuple of ints
PyValue py_str(std::string s);
PyValue py_int(std::int64_t i);
PyValue py_bool(bool b);
PyValue py_none();
PyValue py_float(double d);
PyValue tuple_of(std::vector<PyValue> items);
PyValue list_of(std::vector<PyValue> items);
// Integer parameters, appended in the given order.
void add_int_params(std::vector<std::pair<std::string, PyValue>>& params,
                    std::initializer_list<std::pair<const char*, PyInt>> items);
// tuple(list[begin:end]) (slicing never fails).
PyValue slice_tuple(const Json& list, std::size_t begin, std::size_t end);

// Python builtins used by the parsers.
std::int64_t py_int_of(std::string_view text);              // int(s) (ValueError -> fail)
double py_float_of(std::string_view text);                  // float(s)
std::optional<double> try_py_float(std::string_view text);  // float(s) or nullopt
bool eval_bool(std::string_view text);                      // eval("True"/"False")
// ast.literal_eval(text) of a list of ints, converted with int()/bool().
std::vector<std::int64_t> parse_int_list(std::string_view text);
std::vector<bool> parse_bool_list(std::string_view text);

PyInt prod(const Shape& shape);
// Python's a // b on ints (rounds toward negative infinity; fails on a zero divisor).
PyInt floor_div(PyInt a, PyInt b);
PyInt prod(const Shape& shape, std::size_t from);

// Python arithmetic on int|float.
FormulaNumber operator+(const FormulaNumber& a, const FormulaNumber& b);
FormulaNumber operator*(const FormulaNumber& a, const FormulaNumber& b);
FormulaNumber operator-(const FormulaNumber& a, const FormulaNumber& b);
FormulaNumber true_div(const FormulaNumber& a, const FormulaNumber& b);  // a / b (always float)
FormulaNumber floor_div(const FormulaNumber& a,
                        const FormulaNumber& b);  // a // b (ZeroDivisionError -> fail)
bool py_equal(const FormulaNumber& a, const FormulaNumber& b);  // a == b
double true_div_double(PyInt a, PyInt b);                       // int / int, correctly rounded
inline FormulaNumber I(PyInt v) { return FormulaNumber::from_int(v); }
inline FormulaNumber F(double v) { return FormulaNumber::from_float(v); }

// Scaled-dot-product attention cost on one (possibly mean-length) sequence shape, Python's
// operation order kept so that float lengths round as TraceLens's do (docs/contracts/
// trace_model.md §3.9.9). Causal halves the flops and requires N_Q == N_KV (else fail).
struct SdpaShape {
  FormulaNumber b, n_q, h_q, n_kv, h_kv, d_qk, d_v;
};
FormulaNumber sdpa_flops_fwd(const SdpaShape& s, bool causal);
FormulaNumber sdpa_flops_bwd(const SdpaShape& s, bool causal, bool flash_impl);
// Elements read and written: Q, K, V, O (forward); plus dO, dQ, dK, dV minus O (backward).
PyInt sdpa_elems_fwd(const SdpaShape& s);
PyInt sdpa_elems_bwd(const SdpaShape& s);

// What every family model returns before metrics.
struct FamilyOutput {
  Params params;
  FormulaNumber flops;
  std::optional<FormulaNumber> bytes;
  std::string precision_dtype;  // dtype whose precision names the Compute Spec ("" = None)
  bool has_precision_dtype = false;
  // A precision the model names itself, used verbatim after the maf type (inductor model).
  std::optional<std::string> precision;
};

// Names `dtype` as the output's precision dtype; an empty dtype leaves it None.
void set_precision(FamilyOutput& out, const std::string& dtype);

// GEMM transpose flags (A, B) from the first kernel name that tells them (Tensile, nvjet).
std::optional<PyValue> transpose_from_kernels(const std::vector<std::string>& kernel_names);

FamilyOutput gemm_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction);
FamilyOutput gemm_extension_model(ModelClass model, std::string_view name, const OpArgs& args,
                                  Direction direction);
FamilyOutput gemm_library_model(ModelClass model, std::string_view name, const OpArgs& args,
                                Direction direction);
FamilyOutput gated_activation_model(ModelClass model, std::string_view name, const OpArgs& args,
                                    Direction direction);
FamilyOutput rmsnorm_extension_model(ModelClass model, std::string_view name, const OpArgs& args,
                                     Direction direction);
FamilyOutput conv_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction);
FamilyOutput sdpa_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction);
FamilyOutput flash_attention_model(ModelClass model, std::string_view name, const OpArgs& args,
                                   Direction direction);
FamilyOutput inference_attention_model(ModelClass model, std::string_view name, const OpArgs& args,
                                       Direction direction);
FamilyOutput group_quant_model(ModelClass model, std::string_view name, const OpArgs& args,
                               Direction direction);
FamilyOutput rope_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction);
FamilyOutput serving_memory_model(ModelClass model, std::string_view name, const OpArgs& args,
                                  Direction direction);
FamilyOutput moe_stage_model(ModelClass model, std::string_view name, const OpArgs& args,
                             Direction direction);
FamilyOutput custom_collective_model(ModelClass model, std::string_view name, const OpArgs& args,
                                     Direction direction);
FamilyOutput elementwise_model(ModelClass model, std::string_view name, const OpArgs& args,
                               Direction direction);
FamilyOutput reduce_model(ModelClass model, std::string_view name, const OpArgs& args,
                          Direction direction);
FamilyOutput norm_model(ModelClass model, std::string_view name, const OpArgs& args,
                        Direction direction);
FamilyOutput moe_aux_model(ModelClass model, std::string_view name, const OpArgs& args,
                           Direction direction);
FamilyOutput mhc_model(ModelClass model, std::string_view name, const OpArgs& args,
                       Direction direction);
FamilyOutput primus_model(ModelClass model, std::string_view name, const OpArgs& args,
                          Direction direction);
FamilyOutput grouped_gemm_model(ModelClass model, std::string_view name, const OpArgs& args,
                                Direction direction);
FamilyOutput training_op_model(ModelClass model, std::string_view name, const OpArgs& args,
                               Direction direction);
FamilyOutput triton_model(ModelClass model, std::string_view name, const OpArgs& args,
                          Direction direction);
// Whether the inductor model gets its kernel metadata from the op's trace args.
bool triton_meta_available(std::string_view name, const OpArgs& args);

}  // namespace loupe::core::prepare::perf::detail
