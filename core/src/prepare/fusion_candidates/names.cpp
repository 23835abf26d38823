// Name helpers of the module walk (spec docs/contracts/fusion.md §2.3): strip, eligibility, fused
// kernels, parent chains, Input Dims and durations read from the trace model.
#include <algorithm>
#include <array>
#include <cctype>
#include <string>
#include <string_view>

#include "candidate.hpp"
#include "json_text.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/text.hpp"

namespace loupe::core::prepare {
namespace {

constexpr std::string_view kModulePrefix = "nn.Module: ";
constexpr std::array<std::string_view, 4> kExcluded = {"nccl", "rccl", "memcpy", "memset"};
constexpr std::array<std::string_view, 8> kAlreadyFused = {
    "attn_fwd",        "attn_bwd",   "fmha",      "unified_attention",
    "paged_attention", "flash_attn", "flash_fwd", "silu_and_mul"};

template <std::size_t N>
bool contains_any(const std::string& text, const std::array<std::string_view, N>& needles) {
  return std::any_of(needles.begin(), needles.end(),
                     [&](std::string_view n) { return text.find(n) != std::string::npos; });
}

}  // namespace

std::string strip_module_name(std::string_view name) {
  if (name.starts_with(kModulePrefix)) name.remove_prefix(kModulePrefix.size());
  // One trailing "_<digits>" (regex `_(\d+)$`).
  std::size_t end = name.size();
  std::size_t digits = end;
  while (digits > 0 && std::isdigit(static_cast<unsigned char>(name[digits - 1])) != 0) --digits;
  if (digits < end && digits > 0 && name[digits - 1] == '_') name = name.substr(0, digits - 1);
  return std::string(name);
}

namespace fusion {

FusionCandidatesResult extraction_failed(const std::exception& error) {
  FusionCandidatesResult result;
  result.failed = true;
  result.error = error.what();
  result.json = "[]";
  return result;
}

bool kernel_eligible(std::string_view kernel_name) {
  const std::string low = text::ascii_lower(kernel_name);
  return !contains_any(low, kExcluded) && !contains_any(low, kAlreadyFused);
}

bool kernel_already_fused(std::string_view kernel_name) {
  return contains_any(text::ascii_lower(kernel_name), kAlreadyFused);
}

std::vector<std::string> parent_chain(const trace::TraceModel& model, const trace::EventTree& tree,
                                      Uid uid) {
  std::vector<std::string> chain;
  for (Uid p = tree.parent(uid); p != trace::kNoUid; p = tree.parent(p)) {
    std::string_view name = model.name(p);
    if (name.empty()) continue;
    if (name.starts_with(kModulePrefix)) name.remove_prefix(kModulePrefix.size());
    if (const auto slash = name.rfind('/'); slash != std::string_view::npos) {
      name.remove_prefix(slash + 1);
    }
    chain.emplace_back(name);
  }
  return chain;
}

Json input_dims_of(const trace::TraceModel& model, Uid uid) {
  const auto text = model.arg_text(uid, "Input Dims");
  if (!text) return Json();
  return parse_json_text(*text);
}

Duration DurationReader::operator()(Uid uid) const {
  // A missing dur defaults to the int 0.
  if ((model.event(uid).flags & trace::kHasDur) == 0) return {0.0, true};
  return {model.dur_us(uid), model.dur_is_integer(uid)};
}

bool skipped_category(trace::Category c) {
  return c == trace::Category::kKernel || c == trace::Category::kGpuMemcpy ||
         c == trace::Category::kGpuMemset || c == trace::Category::kCudaRuntime ||
         c == trace::Category::kCudaDriver;
}

}  // namespace fusion
}  // namespace loupe::core::prepare
