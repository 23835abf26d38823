#include "gemm_prose.hpp"

#include <cctype>
#include <cmath>

#include "loupe/compute/card_facts.hpp"
#include "loupe/compute/kernel_family.hpp"
#include "loupe/python_format.hpp"

namespace loupe::gemm {

namespace {

constexpr const char* kDash = "\xE2\x80\x94";

const Json* member(const Json* object, std::string_view key) {
  return object == nullptr || !object->is_object() ? nullptr : object->find(key);
}

std::string num(std::int64_t v) { return std::to_string(v); }

// The family of the finding's dominant GEMM kernel (loupe/compute/kernel_family.hpp): the
// first kernel of the op's kernel_name cell ("Kernel 1: a<br>Kernel 2: b" or one name).
compute::KernelFamily dominant_family(const compute::FindingContext& f) {
  const Json* op = compute::dominant_operation(f);
  const Json* kernel = member(op, "kernel_name");
  if (kernel == nullptr || !kernel->is_string()) return {};
  std::string_view rest = kernel->as_string();
  while (!rest.empty()) {
    const auto br = rest.find("<br>");
    std::string_view one = rest.substr(0, br);
    rest = br == std::string_view::npos ? std::string_view() : rest.substr(br + 4);
    if (one.starts_with("Kernel ")) {
      const auto colon = one.find(": ");
      if (colon != std::string_view::npos) one.remove_prefix(colon + 2);
    }
    const compute::KernelFamily family = compute::kernel_family(one);
    if (family.library != compute::KernelLibrary::kUnknown &&
        family.library != compute::KernelLibrary::kPyTorchNative) {
      return family;
    }
  }
  return {};
}

// PyTorch's TunableOp picks among the BLAS library's solutions for each shape: it exists for
// hipBLASLt / rocBLAS on ROCm and cuBLAS(Lt) on CUDA, not for Triton, AITER, CK or CUTLASS
// kernels, which have their own tuners.
bool blas_tunable(const compute::KernelFamily& family) {
  using compute::KernelLibrary;
  return family.library == KernelLibrary::kHipBlasLt || family.library == KernelLibrary::kTensile ||
         family.library == KernelLibrary::kCuBlas;
}

}  // namespace

std::string padding_list(const std::vector<PaddedDim>& pad) {
  std::string out;
  for (size_t i = 0; i < pad.size(); ++i) {
    if (i > 0) out += i + 1 == pad.size() ? " and " : ", ";
    out += std::string(1, pad[i].name) + " from " + num(pad[i].from) + " to " + num(pad[i].to);
  }
  return out;
}

std::string GemmProse::document_title(const std::string& category) const {
  return "GEMM Findings: Matrix multiplications (" + category + ")";
}

std::vector<std::string> GemmProse::overview(const Json& metrics) const {
  auto items = FindingsProse::overview(metrics);
  const Json* block = member(&metrics, "category_specific");
  const Json* quantized = member(block, "quantized_count");
  const Json* missing = member(block, "missing_perf_model_count");
  if (quantized != nullptr && missing != nullptr) {
    items.push_back("Quantized GEMM signatures: " + compute::jnum(*quantized) +
                    "; signatures without a performance model: " + compute::jnum(*missing));
  }
  return items;
}

std::string GemmProse::no_data_message() const { return "No GEMM operations found in trace."; }

std::optional<GemmProse::Shape> GemmProse::shape(const compute::FindingContext& f) const {
  if (!measured() || f.heuristic() || f.comparative) return std::nullopt;
  const Json* op = compute::dominant_operation(f);
  const Json* dims_value = member(op, "gemm_dims");
  if (dims_value == nullptr) return std::nullopt;
  const auto dims = dims_from_json(*dims_value);
  if (!dims) return std::nullopt;
  Shape s;
  s.dims = *dims;
  const Json* eff = member(member(op, "efficiency"), "efficiency_percent");
  s.diagnosis = diagnose(
      *dims, f.bound_type() == "memory",
      eff != nullptr && eff->is_number() ? std::optional<double>(eff->as_double()) : std::nullopt);
  const Json* name = member(op, "name");
  s.op_name = name != nullptr && name->is_string() ? name->as_string() : "";
  const Json* fpb = member(member(op, "efficiency"), "flops_per_byte");
  s.flops_per_byte = fpb != nullptr && fpb->is_number() ? fpb->as_double() : std::nan("");
  const Json* count = member(op, "count");
  s.count = count != nullptr && count->is_int() ? static_cast<long long>(count->as_int()) : 0;
  const bool batched =
      s.op_name.find("bmm") != std::string::npos || s.op_name.find("matmul") != std::string::npos;
  const Json* chain = member(op, "module_chain");
  if (batched && chain != nullptr && chain->is_array()) {
    for (const auto& m : chain->as_array()) {
      if (!m.is_string()) continue;
      std::string lower = m.as_string();
      for (auto& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      if (lower.find("attention") != std::string::npos) s.attention = true;
    }
  }
  return s;
}

std::string GemmProse::action(const compute::FindingContext& f) const {
  if (f.heuristic()) return FindingsProse::action(f);
  const std::string bound = f.bound_type();
  if (const auto s = shape(f)) {
    const GemmDims& d = s->dims;
    const std::string op = "`" + s->op_name + "`";
    if (s->attention) {
      return "Replace the attention module's separate " + op + " products (M=" + num(d.m) +
             ", N=" + num(d.n) + ", K=" + num(d.k) + ", batch " + num(d.batch) +
             ") and their softmax with one fused attention kernel: "
             "`torch.nn.functional.scaled_dot_product_attention`, or load a Hugging Face model "
             "with `attn_implementation=\"sdpa\"` (or `\"flash_attention_2\"`), so the score "
             "matrix is never written to HBM.";
    }
    switch (s->diagnosis.pattern) {
      case ShapePattern::TallSkinny:
        return "Batch " + op + " (M=" + num(d.m) + ", N=" + num(d.n) + ", K=" + num(d.k) +
               ", a tall-skinny product at " +
               (std::isnan(s->flops_per_byte)
                    ? std::string(kDash)
                    : py::float_repr(py::round_half_even(s->flops_per_byte, 1))) +
               " FLOPS/Byte) with the GEMMs that read the same input (concatenate their weights "
               "along N, or use `torch.bmm`), or fuse it with its producer or consumer "
               "(`torch.compile`), so the large operand is read once.";
      case ShapePattern::ShortK:
        return "Fuse " + op + " (M=" + num(d.m) + ", N=" + num(d.n) + ", K=" + num(d.k) +
               ": a short K loop writes an output " + num(d.m / d.k) +
               " times larger than its inputs) with the op that consumes its output "
               "(`torch.compile`), so the large result is not written to and re-read from HBM.";
      case ShapePattern::Misaligned:
        return "Pad " + op + "'s " + padding_list(s->diagnosis.pad) +
               " (multiples of 64; a multiple of 8 is the minimum for aligned vector loads), "
               "e.g. by padding the weight and the hidden or vocabulary size, and slice the "
               "output back.";
      case ShapePattern::OffTile:
        return "Pad " + op + "'s " + padding_list(s->diagnosis.pad) +
               " (multiples of 64, a common GEMM tile edge) so no tile runs partly empty, and "
               "slice the output back.";
      case ShapePattern::FewTiles:
        return "Use a split-K or stream-K GEMM for " + op + ": M x N = " + num(d.m) + " x " +
               num(d.n) + " fills only " + num(s->diagnosis.output_tiles) +
               " output tiles of 128 x 128 while K = " + num(d.k) +
               ", so the K loop must be spread over more compute units (a stream-K kernel of "
               "the vendor GEMM library, or a split-K Triton GEMM).";
      case ShapePattern::None:
        break;
    }
    if (s->count >= 1000 && std::max({d.m, d.n, d.k}) <= 256) {
      return "Batch the " + std::to_string(s->count) + " small " + op + " calls (M=" + num(d.m) +
             ", N=" + num(d.n) + ", K=" + num(d.k) +
             ") into one `torch.bmm` or grouped GEMM so each launch amortizes its load.";
    }
  }
  if (bound == "compute") {
    const compute::KernelFamily family = dominant_family(f);
    if (measured() && blas_tunable(family)) {  // default mode: compat keeps the prompt table
      return std::string("Let PyTorch's TunableOp pick the fastest ") +
             compute::kernel_library_name(family.library) +
             " solution for these shapes (`PYTORCH_TUNABLEOP_ENABLED=1` on a representative run, "
             "then reuse the tuned file), and profile the dominant member kernels for tile-size "
             "and wave-occupancy tuning. If the model tolerates a narrower precision (e.g. FP8 "
             "instead of BF16), narrow it to lower the compute floor.";
    }
    return "Profile the dominant member kernels for tile-size and wave-occupancy tuning. If the "
           "model tolerates a narrower precision (e.g. FP8 instead of BF16), narrow it to lower "
           "the compute floor.";
  }
  if (bound == "memory") {
    return "Optimize the memory access patterns of the dominant member kernels. Chains of "
           "memory-bound GEMMs with their epilogue (bias-add, activation) in one module belong "
           "to the kernel fusion findings.";
  }
  return FindingsProse::action(f);
}

std::string GemmProse::resolution(const compute::FindingContext& f) const {
  if (f.heuristic()) return FindingsProse::resolution(f);
  if (const auto s = shape(f)) {
    if (s->attention) {
      return "A fused attention kernel computes the scores, the softmax and the weighted sum "
             "on tiles held on chip, so the attention matrix never makes a round trip through "
             "HBM.";
    }
    switch (s->diagnosis.pattern) {
      case ShapePattern::ShortK:
        return "Consuming the GEMM's output inside the same kernel removes its write and the "
               "re-read by the next op, which dominate a product whose output is much larger "
               "than its inputs.";
      case ShapePattern::TallSkinny:
        return "One wider GEMM, or a kernel fused with its neighbour, reads the large operand "
               "once for several products, which raises the FLOPs per byte moved of a shape "
               "that is limited by memory traffic.";
      case ShapePattern::Misaligned:
      case ShapePattern::OffTile:
        return "Dimensions that are multiples of the tile edge fill every tile and start every "
               "row on an aligned vector load, so the library can select its fastest kernels "
               "instead of masked edge handling.";
      case ShapePattern::FewTiles:
        return "Splitting the K loop gives the GPU more independent work items than the output "
               "tiles alone, and one short reduction combines the partial sums.";
      case ShapePattern::None:
        break;
    }
  }
  return FindingsProse::resolution(f);
}

std::vector<std::string> GemmProse::reasoning_extras(const compute::FindingContext& f) const {
  if (f.heuristic() || f.comparative) return {};
  std::vector<std::string> out;
  if (f.bound_type() == "compute") {
    out.push_back("Tile size not visible \xE2\x80\x94 profile the kernel for tile-size tuning.");
    out.push_back(
        "Decomposition strategy not visible \xE2\x80\x94 profile the kernel for tiling layout.");
  }
  if (const auto s = shape(f)) {
    const GemmDims& d = s->dims;
    out.push_back("The dominant GEMM has M=" + num(d.m) + ", N=" + num(d.n) + ", K=" + num(d.k) +
                  (d.batch > 1 ? ", batch " + num(d.batch) : std::string()) + ", " +
                  num(s->diagnosis.output_tiles) + " output tiles of 128 x 128.");
  }
  return out;
}

}  // namespace loupe::gemm
