// matmul_ogs MoE rows (moe_rows.hpp).
#include "moe_rows.hpp"

#include <charconv>
#include <optional>
#include <string>
#include <vector>

#include "loupe/core/prepare/moe_matmul_ogs.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"

namespace loupe::core::prepare::unified {
namespace {

constexpr std::string_view kMoeOp = "vllm::moe_forward";

// The enclosing MoE op of the row's source (itself or a host ancestor), kNoUid when none.
trace::Uid moe_op_of(const trace::TraceModel& model, const trace::EventTree& tree, trace::Uid uid) {
  for (int depth = 0; uid != trace::kNoUid && depth < 64; ++depth, uid = tree.parent(uid)) {
    if (model.event(uid).category == trace::Category::kCpuOp && model.name(uid) == kMoeOp) {
      return uid;
    }
  }
  return trace::kNoUid;
}

// k of the router's TopK (Concrete Inputs[1]) among the MoE op's host descendants.
std::optional<std::int64_t> topk_under(TraceArgCache& args, const trace::EventTree& tree,
                                       trace::Uid uid, int depth) {
  if (depth > 12) return std::nullopt;
  const trace::TraceModel& model = args.model();
  for (const trace::Uid c : tree.children(uid)) {
    const trace::Category cat = model.event(c).category;
    if (cat != trace::Category::kCpuOp && cat != trace::Category::kPythonFunction) continue;
    const std::string_view name = model.name(c);
    if (cat == trace::Category::kCpuOp && (name == "TopK" || name == "aten::topk")) {
      const Json concrete = trace_arg_json(model, c, "Concrete Inputs");
      if (concrete.is_array() && concrete.size() > 1 && concrete.as_array()[1].is_string()) {
        const std::string& text = concrete.as_array()[1].as_string();
        std::int64_t k = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), k);
        if (ec == std::errc() && end == text.data() + text.size() && k > 0) return k;
      }
    }
    if (auto k = topk_under(args, tree, c, depth + 1)) return k;
  }
  return std::nullopt;
}

std::optional<std::int64_t> dim(const Json& dims, std::size_t i, std::size_t j) {
  if (!dims.is_array() || dims.size() <= i) return std::nullopt;
  const Json& shape = dims.as_array()[i];
  if (!shape.is_array() || shape.size() <= j) return std::nullopt;
  const Json& v = shape.as_array()[j];
  if (!v.is_number()) return std::nullopt;
  const auto n = static_cast<std::int64_t>(v.as_double());
  return n > 0 ? std::optional<std::int64_t>(n) : std::nullopt;
}

// The expert weight tensor the matmul_ogs call of `kernel` reads: triton_kernels views it as
// [E, K, N] (an `aten::view` of an 8-bit tensor: MXFP4 packed two per byte, or FP8) inside the
// Python frame `matmul_ogs` that launched the kernel. Empty when the trace does not show it.
std::vector<std::int64_t> expert_weight_view(TraceArgCache& args, const trace::EventTree& tree,
                                             trace::Uid kernel, trace::Uid moe) {
  const trace::TraceModel& model = args.model();
  trace::Uid frame = trace::kNoUid;
  for (trace::Uid u = tree.parent(kernel); u != trace::kNoUid && u != moe; u = tree.parent(u)) {
    if (model.event(u).category == trace::Category::kPythonFunction &&
        model.name(u).ends_with(": matmul_ogs")) {
      frame = u;
      break;
    }
  }
  if (frame == trace::kNoUid) return {};
  std::vector<trace::Uid> stack(tree.children(frame).begin(), tree.children(frame).end());
  for (std::size_t visited = 0; !stack.empty() && visited < 4096; ++visited) {
    const trace::Uid c = stack.back();
    stack.pop_back();
    if (model.event(c).category == trace::Category::kCpuOp && model.name(c) == "aten::view") {
      const Json types = trace_arg_json(model, c, "Input type");
      const Json dims = trace_arg_json(model, c, "Input Dims");
      const bool eight_bit = types.is_array() && types.size() > 0 &&
                             types.as_array()[0].is_string() &&
                             (types.as_array()[0].as_string() == "unsigned char" ||
                              types.as_array()[0].as_string().starts_with("c10::Float8"));
      if (eight_bit && dims.is_array() && dims.size() > 0 && dims.as_array()[0].is_array() &&
          dims.as_array()[0].size() == 3) {
        std::vector<std::int64_t> out;
        for (const Json& d : dims.as_array()[0].as_array()) {
          if (!d.is_int()) return {};
          out.push_back(d.as_int());
        }
        return out;
      }
    }
    for (const trace::Uid g : tree.children(c)) stack.push_back(g);
  }
  return {};
}

}  // namespace

bool apply_matmul_ogs_model(TraceArgCache& args, const trace::EventTree& tree,
                            const perf::Arch* arch, UnifiedRow& row) {
  if (row.has_metrics || row.kernel_details.empty()) return false;
  std::optional<perf::MatmulOgsKernel> first;
  for (const KernelDetail& k : row.kernel_details) {
    if (!perf::is_matmul_ogs_kernel(k.name)) return false;
    if (!first) first = perf::parse_matmul_ogs_kernel(k.name);
  }
  if (!first) return false;
  const trace::TraceModel& model = args.model();

  std::optional<perf::MoeLayerShape> shape;
  std::string missing;
  const trace::Uid moe = moe_op_of(model, tree, row.source);
  if (moe == trace::kNoUid) {
    missing = row.synthetic ? "no MoE op encloses the kernel (a GPU-graph replay records no "
                              "shapes; a capture trace of the graph can attribute it)"
                            : "no vllm::moe_forward op encloses the kernel";
  } else {
    const Json dims = trace_arg_json(model, moe, "Input Dims");
    const auto tokens = dim(dims, 0, 0);
    const auto hidden = dim(dims, 0, 1);
    const auto experts = dim(dims, 1, 1);
    const auto topk = topk_under(args, tree, moe, 0);
    if (!tokens || !hidden || !experts) {
      missing = "vllm::moe_forward has no Input Dims [[tokens, hidden], [tokens, experts]]";
    } else if (!topk) {
      missing = "no TopK op under vllm::moe_forward gives the experts per token";
    } else {
      shape = perf::MoeLayerShape{*tokens, *hidden, *experts, *topk, std::nullopt};
      if (!row.gpu_events.empty()) {
        const auto weights = expert_weight_view(args, tree, row.gpu_events.front(), moe);
        shape->intermediate = perf::expert_intermediate_size(
            weights, first->weight_dtype == "mxfp4", first->gated(), *shape);
      }
    }
  }

  row.has_perf_model = true;
  row.category = "MoE_unfused";
  // Each kernel is one expert matmul; the row's work is their sum.
  perf::ModelResult total = perf::matmul_ogs_model(*first, shape, missing);
  if (total.ok()) {
    double flops = 0.0;
    double bytes = 0.0;
    bool bytes_known = true;
    for (const KernelDetail& k : row.kernel_details) {
      const auto parsed = perf::parse_matmul_ogs_kernel(k.name);
      if (!parsed) return true;  // a kernel the model cannot read: no numbers for the row
      const perf::ModelResult one = perf::matmul_ogs_model(*parsed, shape, missing);
      flops += one.flops.to_double();
      if (one.bytes) {
        bytes += one.bytes->to_double();
      } else {
        bytes_known = false;
      }
    }
    if (row.kernel_details.size() > 1) {
      total.params.emplace_back(
          "kernels", compute::PyValue(static_cast<std::int64_t>(row.kernel_details.size())));
      total.flops = perf::FormulaNumber::from_float(flops);
      total.bytes =
          bytes_known ? std::optional(perf::FormulaNumber::from_float(bytes)) : std::nullopt;
    }
    apply_metrics(total, arch, row);
  } else {
    row.perf_params = perf::params_repr(total.params);
  }
  return true;
}

}  // namespace loupe::core::prepare::unified
