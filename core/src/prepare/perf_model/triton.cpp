// Inductor kernels-as-ops (`triton_poi_/triton_red_/triton_per_*`, docs/contracts/trace_model.md
// §3.9.2): launch sizes from the trailing Concrete Inputs, bytes from the pointer arguments' shapes
// and dtypes, flops from the fused ops the kernel name lists.
#include <string>
#include <utility>

#include "loupe/text.hpp"
#include "model_support.hpp"
#include "triton_kernel_name.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

struct PointerArg {
  Shape shape;
  int bpe = 0;
};

struct KernelMeta {
  std::vector<std::string> fused_ops;
  PyInt xnumel = 0;
  PyInt rnumel = 1;
  std::vector<PointerArg> pointers;
  std::optional<std::string> dtype;  // e.g. "bfloat16"; None when no pointer has a known size
};

// Element sizes by the exact (case-sensitive) c10 type name; everything else, Kineto's plain
// "float", "int", "long int" and "bool" included, is 0.
int c10_bytes(const Json& type) {
  static constexpr std::pair<std::string_view, int> kSizes[] = {
      {"c10::BFloat16", 2}, {"c10::Half", 2}, {"c10::Float", 4}, {"c10::Double", 8},
      {"c10::Byte", 1},     {"c10::Char", 1}, {"c10::Int", 4},   {"c10::Long", 8},
  };
  if (!type.is_string()) return 0;
  for (const auto& [name, bpe] : kSizes) {
    if (type.as_string() == name) return bpe;
  }
  return 0;
}

// int(v) of a Concrete Inputs entry.
PyInt concrete_int(const Json& v) {
  if (v.is_string()) return py_int_of(v.as_string());
  if (v.is_int()) return v.as_int();
  if (v.is_bool()) return v.as_bool() ? 1 : 0;
  if (v.is_double()) return static_cast<PyInt>(v.as_double());
  fail("int() of a non-number Concrete Inputs entry");
}

bool truthy_list(const Json& v) { return v.is_array() ? v.size() > 0 : !v.is_null(); }

// The kernel metadata the trace args carry, or nullopt when an arg is missing or gives no
// launch size.
std::optional<KernelMeta> meta_from_args(std::string_view name, const OpArgs& args) {
  if (!truthy_list(args.concrete_inputs) || !truthy_list(args.input_dims) ||
      !truthy_list(args.input_types)) {
    return std::nullopt;
  }
  if (!args.concrete_inputs.is_array() || !args.input_dims.is_array() ||
      !args.input_types.is_array()) {
    fail("inductor op args are not lists");
  }
  const bool reduction = name.starts_with("triton_red_") || name.starts_with("triton_per_");
  std::vector<PyInt> sizes;
  for (const auto& v : args.concrete_inputs.as_array()) {
    if (v.is_string() && v.as_string().empty()) continue;
    sizes.push_back(concrete_int(v));
  }
  if (sizes.empty()) return std::nullopt;

  KernelMeta meta;
  if (reduction && sizes.size() >= 2) {
    meta.xnumel = sizes[sizes.size() - 2];
    meta.rnumel = sizes.back();
  } else {
    meta.xnumel = sizes.back();
  }
  meta.fused_ops = inductor_fused_ops(name);
  const auto& dims = args.input_dims.as_array();
  const auto& types = args.input_types.as_array();
  for (std::size_t i = 0; i < dims.size() && i < types.size(); ++i) {
    if (types[i].is_string() && types[i].as_string() == "Scalar") continue;
    if (!truthy_list(dims[i])) continue;
    const int bpe = c10_bytes(types[i]);
    meta.pointers.push_back({shape_of(dims[i], "inductor op pointer arg"), bpe});
    if (!meta.dtype && bpe > 0) {
      const std::string& type = types[i].as_string();
      const auto colons = type.rfind("::");
      meta.dtype = text::ascii_lower(colons == std::string::npos ? type : type.substr(colons + 2));
    }
  }
  return meta;
}

std::string joined(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) {
    if (!out.empty()) out.append(", ");
    out.append(item);
  }
  return out;
}

}  // namespace

bool triton_meta_available(std::string_view name, const OpArgs& args) {
  try {
    return meta_from_args(name, args).has_value();
  } catch (const ModelException&) {
    return false;
  }
}

FamilyOutput triton_model(ModelClass /*model*/, std::string_view name, const OpArgs& args,
                          Direction direction) {
  if (direction == Direction::kBackward) {
    not_implemented(std::string("no backward formulas for ").append(name));
  }
  // Without trace metadata the model falls back to the compiling machine's inductor cache,
  // which a trace does not carry: "not implemented".
  const auto meta = meta_from_args(name, args);
  if (!meta)
    not_implemented(std::string("no inductor metadata in the trace args of ").append(name));

  FamilyOutput out;
  out.params.emplace_back("fused_ops", py_str(joined(meta->fused_ops)));
  out.params.emplace_back("xnumel", PyValue(static_cast<std::int64_t>(meta->xnumel)));
  out.params.emplace_back("rnumel", PyValue(static_cast<std::int64_t>(meta->rnumel)));

  PyInt per_element = 0;
  for (const auto& op : meta->fused_ops) per_element += inductor_flops_per_element(op);
  out.flops = F(static_cast<double>(per_element * meta->xnumel * meta->rnumel));

  // Every pointer arg once at its own size; a pointwise kernel also writes xnumel elements of
  // the first pointer's size (a reduction's output is assumed among the args).
  PyInt arg_bytes = 0;
  for (const auto& p : meta->pointers) arg_bytes += prod(p.shape) * p.bpe;
  auto bytes = static_cast<double>(arg_bytes);
  const bool reduction = name.starts_with("triton_red_") || name.starts_with("triton_per_");
  if (!reduction && !meta->pointers.empty()) {
    bytes += static_cast<double>(meta->pointers.front().bpe * meta->xnumel);
  }
  out.bytes = F(bytes);
  if (meta->dtype) out.precision = *meta->dtype;
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
