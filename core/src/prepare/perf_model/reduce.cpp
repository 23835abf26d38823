// Reduction models (docs/contracts/trace_model.md §3.9.7): aten::sum/mean/max/… with backward formulas.
#include <algorithm>

#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

// The dim/keepdim scan over Concrete Inputs[1:]: only real bools / ints / int lists count,
// and Kineto writes every concrete input as a string, so traces always yield "no dim".
std::optional<std::vector<std::int64_t>> reduce_dims(const Json& concrete, bool& keepdim) {
  if (!concrete.is_array() || concrete.size() < 2) return std::nullopt;
  const auto& all = concrete.as_array();
  std::optional<std::size_t> keepdim_idx;
  for (std::size_t idx = all.size(); idx-- > 1;) {
    if (all[idx].is_bool()) {
      keepdim = all[idx].as_bool();
      keepdim_idx = idx;
      break;
    }
  }
  for (std::size_t idx = all.size(); idx-- > 1;) {
    if (keepdim_idx && idx == *keepdim_idx) continue;
    const Json& v = all[idx];
    if (v.is_null() || v.is_string()) continue;
    if (v.is_array()) {
      std::vector<std::int64_t> dims;
      bool ok = true;
      for (const auto& d : v.as_array()) {
        if (d.is_int()) {
          dims.push_back(d.as_int());
        } else if (d.is_bool()) {
          dims.push_back(d.as_bool() ? 1 : 0);
        } else {
          ok = false;
          break;
        }
      }
      if (ok) return dims;
      continue;
    }
    if (v.is_int()) return std::vector<std::int64_t>{v.as_int()};
  }
  return std::nullopt;
}

}  // namespace

FamilyOutput reduce_model(ModelClass /*model*/, std::string_view name, const OpArgs& args,
                          Direction direction) {
  FamilyOutput out;
  const Json& dims = args.input_dims;
  PyInt num_in = 0;
  PyInt num_out = 0;
  std::optional<std::string> dtype_in;
  if (!dims.is_array() || dims.size() == 0 || dims.as_array()[0].is_null()) {
    out.params.emplace_back("num_input_elems", py_int(0));
    out.params.emplace_back("num_output_elems", py_int(0));
    out.params.emplace_back("dtype_in_out", tuple_of({py_none(), py_none()}));
  } else {
    const Shape shape = shape_of(dims.as_array()[0], "input");
    num_in = prod(shape);
    if (args.input_types.is_array() && args.input_types.size() > 0) {
      const Json& t = args.input_types.as_array()[0];
      if (!t.is_string()) fail("dtype is not a string");
      dtype_in = t.as_string();
    }
    bool keepdim = false;
    const auto dim = reduce_dims(args.concrete_inputs, keepdim);
    if (name.find("cumsum") != std::string_view::npos ||
        name.find("cumprod") != std::string_view::npos) {
      num_out = num_in;
    } else if (dim && !dim->empty()) {
      const auto ndim = static_cast<std::int64_t>(shape.size());
      std::vector<std::int64_t> sorted = *dim;
      for (auto& d : sorted) d = d >= 0 ? d : ndim + d;
      std::sort(sorted.rbegin(), sorted.rend());
      Shape y = shape;
      for (const auto d : sorted) {
        if (d >= 0 && d < static_cast<std::int64_t>(y.size())) {
          if (keepdim) {
            y[static_cast<std::size_t>(d)] = 1;
          } else {
            y.erase(y.begin() + d);
          }
        }
      }
      num_out = y.empty() ? 1 : prod(y);
    } else {
      num_out = 1;
    }
    const char* reduce_type = "sum";
    if (name.find("mean") != std::string_view::npos) {
      reduce_type = "mean";
    } else if (name.find("max") != std::string_view::npos) {
      reduce_type = "max";
    } else if (name.find("min") != std::string_view::npos) {
      reduce_type = "min";
    } else if (name.find("norm") != std::string_view::npos) {
      reduce_type = "norm";
    }
    out.params.emplace_back("num_input_elems", PyValue(static_cast<std::int64_t>(num_in)));
    out.params.emplace_back("num_output_elems", PyValue(static_cast<std::int64_t>(num_out)));
    out.params.emplace_back("dtype_in_out",
                            tuple_of({dtype_in ? py_str(*dtype_in) : py_none(), py_none()}));
    out.params.emplace_back("reduce_type", py_str(reduce_type));
  }
  if (dtype_in && !dtype_in->empty()) {
    out.precision_dtype = *dtype_in;
    out.has_precision_dtype = true;
  }
  // The output dtype is never known (no "Output type" arg): it follows the input.
  const std::optional<int> bpe =
      dtype_in && !dtype_in->empty() ? bytes_per_element(*dtype_in) : std::nullopt;
  out.flops = I(num_in);
  if (bpe) {
    out.bytes = direction == Direction::kForward ? I(num_in * *bpe + num_out * *bpe)
                                                 : I(num_out * *bpe + num_in * *bpe);
  }
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
