#include "sdpa_kernel_breakdown.hpp"

#include <cctype>

#include "loupe/compute/op_fields.hpp"
#include "loupe/python_format.hpp"
#include "loupe/text.hpp"

namespace loupe::sdpa {

namespace {

bool is_space(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string replace_all(std::string text, std::string_view from, std::string_view to) {
  for (size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos)) {
    text.replace(pos, from.size(), to);
    pos += to.size();
  }
  return text;
}

struct NameAndMean {
  std::string name;
  std::string mean;
};

// The (name, mean_duration_us digits) pairs that TraceLens's pattern
// 'name':\s*'([^']+)'.*?'mean_duration_us':\s*([0-9.]+) finds (dot matches newline), scanning
// left to right like re.findall.
std::vector<NameAndMean> find_name_mean_pairs(const std::string& text) {
  static constexpr std::string_view kName = "'name':";
  static constexpr std::string_view kMean = "'mean_duration_us':";
  std::vector<NameAndMean> out;
  size_t pos = 0;
  while (true) {
    const size_t at = text.find(kName, pos);
    if (at == std::string::npos) break;
    size_t q = at + kName.size();
    while (q < text.size() && is_space(text[q])) ++q;
    const size_t close = q < text.size() && text[q] == '\'' ? text.find('\'', q + 1) : q;
    if (q >= text.size() || text[q] != '\'' || close == std::string::npos || close == q + 1) {
      pos = at + 1;
      continue;
    }
    bool matched = false;
    for (size_t m = text.find(kMean, close + 1); m != std::string::npos;
         m = text.find(kMean, m + 1)) {
      size_t d = m + kMean.size();
      while (d < text.size() && is_space(text[d])) ++d;
      size_t e = d;
      while (e < text.size() &&
             (std::isdigit(static_cast<unsigned char>(text[e])) != 0 || text[e] == '.')) {
        ++e;
      }
      if (e == d) continue;
      out.push_back({text.substr(q + 1, close - q - 1), text.substr(d, e - d)});
      pos = e;
      matched = true;
      break;
    }
    if (!matched) pos = at + 1;
  }
  return out;
}

void set_role_flag(KernelBreakdown& b, KernelRole role) {
  if (role == KernelRole::ReshapeCache) b.has_reshape_cache = true;
  if (role == KernelRole::PagedAttention) b.has_paged_attention = true;
  if (role == KernelRole::FwdKernel) b.has_fwd_kernel = true;
}

void set_percents(KernelBreakdown& b) {
  double total = 0.0;
  for (const auto& k : b.kernels) total += k.time_us;
  if (!(total > 0)) return;
  for (auto& k : b.kernels) k.percent = py::round_half_even(k.time_us / total * 100, 2);
}

KernelBreakdown tracelens_breakdown(std::string_view details) {
  KernelBreakdown b;
  const std::string text =
      replace_all(replace_all(std::string(details), "np.float64(", ""), ")", "");
  std::vector<BreakdownKernel> kernels;
  for (const auto& pair : find_name_mean_pairs(text)) {
    double mean = 0.0;
    // A digit run with two dots is a ValueError for TraceLens: the breakdown stays empty.
    if (!py::parse_float(pair.mean, mean)) return KernelBreakdown{};
    const KernelRole role = kernel_role(pair.name);
    set_role_flag(b, role);
    kernels.push_back({pair.name, mean, role, std::nullopt});
  }
  b.kernels = std::move(kernels);
  set_percents(b);
  return b;
}

KernelBreakdown corrected_breakdown(std::string_view details) {
  KernelBreakdown b;
  const auto kernels = compute::parse_kernel_details(details);
  if (!kernels) return b;
  for (const auto& k : *kernels) {
    const KernelRole role = kernel_role(k.name);
    set_role_flag(b, role);
    b.kernels.push_back({k.name, k.total_duration_us, role, std::nullopt});
  }
  set_percents(b);
  return b;
}

}  // namespace

const char* kernel_role_name(KernelRole role) {
  switch (role) {
    case KernelRole::ReshapeCache:
      return "reshape_cache";
    case KernelRole::PagedAttention:
      return "paged_attention";
    case KernelRole::FwdKernel:
      return "fwd_kernel";
    case KernelRole::Other:
      break;
  }
  return "other";
}

KernelRole kernel_role(std::string_view kernel_name) {
  const std::string name = text::ascii_lower(kernel_name);
  if (name.find("reshape_and_cache") != std::string::npos) return KernelRole::ReshapeCache;
  if (name.find("paged_attention") != std::string::npos) return KernelRole::PagedAttention;
  if (name.find("fwd_kernel") != std::string::npos) return KernelRole::FwdKernel;
  return KernelRole::Other;
}

KernelBreakdown parse_kernel_breakdown(std::string_view kernel_details, bool tracelens_compat) {
  if (kernel_details.empty()) return {};
  return tracelens_compat ? tracelens_breakdown(kernel_details)
                          : corrected_breakdown(kernel_details);
}

Json breakdown_json(const KernelBreakdown& b, bool tracelens_compat) {
  Json out = Json::object();
  out["has_paged_attention_kernel"] = b.has_paged_attention;
  out["has_fwd_kernel"] = b.has_fwd_kernel;
  out["has_reshape_cache"] = b.has_reshape_cache;
  Json kernels = Json::array();
  for (const auto& k : b.kernels) {
    Json item = Json::object();
    item["name"] = k.name;
    item[tracelens_compat ? "mean_us" : "total_us"] = k.time_us;
    item["kernel_type"] = kernel_role_name(k.role);
    if (k.percent) item["percent"] = *k.percent;
    kernels.push_back(std::move(item));
  }
  out["kernels"] = std::move(kernels);
  return out;
}

}  // namespace loupe::sdpa
