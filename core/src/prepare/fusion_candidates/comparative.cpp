// Comparative extraction (spec docs/contracts/fusion.md §1.3, §2.7): trace-1 modules whose kernels
// map, through TraceDiff's lowest common ancestors in diff_stats.csv, to fewer trace-2 kernels.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "candidate.hpp"
#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/text.hpp"
#include "postprocess.hpp"
#include "python_set_order.hpp"

namespace loupe::core::prepare {
namespace {

using fusion::Candidate;
using fusion::CandidateKernel;
using trace::Uid;

constexpr std::size_t kMaxDelta = 15;          // G2
constexpr std::size_t kMaxTrace1Kernels = 30;  // G3
constexpr std::array<std::string_view, 4> kInfrastructure = {"nccl", "rccl", "memcpy", "memset"};
constexpr std::array<std::string_view, 5> kLayoutTransforms = {
    "batched_transpose", "nchw2nhwc", "nhwc2nchw", "transpose_nchw", "transpose_cnhw"};

// pandas reads the LCA id column as int64 when every cell is an integer, else as float64; the
// JSON then prints 0 or 50.0.
struct LcaId {
  std::int64_t value = 0;
  bool is_float = false;
};

struct DiffKernel {
  std::string name;
  std::string type;
  double dur_us = 0.0;
  LcaId lca;
  Uid gpu_op_uid = trace::kNoUid;
};

bool integer_text(std::string_view text) {
  std::int64_t value = 0;
  const char* end = text.data() + text.size();
  const auto [ptr, ec] = std::from_chars(text.data(), end, value);
  return ec == std::errc() && ptr == end;
}

template <std::size_t N>
bool all_match(const std::vector<const DiffKernel*>& kernels,
               const std::array<std::string_view, N>& needles) {
  return std::all_of(kernels.begin(), kernels.end(), [&](const DiffKernel* k) {
    const std::string low = text::ascii_lower(k->name);
    return std::any_of(needles.begin(), needles.end(),
                       [&](std::string_view n) { return low.find(n) != std::string::npos; });
  });
}

// What diff_stats.csv says: trace-1 kernels by GPU op UID, trace-2 kernels by LCA id.
struct DiffLookups {
  std::unordered_map<Uid, DiffKernel> trace1_by_uid;
  std::unordered_map<std::int64_t, std::vector<DiffKernel>> trace2_by_lca;
};

DiffLookups read_diff_stats(const CsvTable& diff) {
  DiffLookups out;
  const auto name_col = diff.find_column("name");
  const auto source_col = diff.find_column("source");
  const auto lca_col = diff.find_column("lowest_common_ancestor_id");
  const auto time_col = diff.find_column("kernel_time");
  const auto uid_col = diff.find_column("gpu_op_uid");
  if (!name_col || !source_col || !lca_col) return out;

  bool lca_float = false;
  for (std::size_t r = 0; r < diff.row_count(); ++r) {
    const CsvCellView cell = diff.cell(r, *lca_col);
    if (cell.kind != CsvCell::Kind::Number || !integer_text(cell.text)) lca_float = true;
  }
  for (std::size_t r = 0; r < diff.row_count(); ++r) {
    const CsvCellView lca = diff.cell(r, *lca_col);
    if (lca.kind != CsvCell::Kind::Number || std::isnan(lca.number)) continue;  // dropna
    DiffKernel k;
    k.name = diff.cell(r, *name_col).text;
    k.type = fusion::classify_cached(k.name);
    k.lca = {static_cast<std::int64_t>(lca.number), lca_float};
    if (time_col) {
      // float(row.get("kernel_time", 0) or 0): 0 stays 0.0, a missing value is NaN.
      const CsvCellView t = diff.cell(r, *time_col);
      k.dur_us = t.kind == CsvCell::Kind::Number ? t.number : std::nan("");
    }
    const std::string_view source = diff.cell(r, *source_col).text;
    if (source == "trace1" && uid_col) {
      const CsvCellView uid = diff.cell(r, *uid_col);
      if (uid.kind != CsvCell::Kind::Number) continue;
      k.gpu_op_uid = static_cast<Uid>(uid.number);
      out.trace1_by_uid.insert_or_assign(k.gpu_op_uid, std::move(k));
    } else if (source == "trace2") {
      out.trace2_by_lca[k.lca.value].push_back(std::move(k));
    }
  }
  return out;
}

// Gates G1-G4 and the delta filters of §2.7 step 5.
bool passes_gates(const std::vector<const DiffKernel*>& t1, std::size_t n2) {
  const std::size_t n1 = t1.size();
  if (n1 <= n2 || n1 - n2 > kMaxDelta || n1 > kMaxTrace1Kernels || n2 < 1) return false;
  std::vector<const DiffKernel*> delta = t1;
  std::stable_sort(delta.begin(), delta.end(),
                   [](const DiffKernel* a, const DiffKernel* b) { return a->dur_us < b->dur_us; });
  delta.resize(n1 - n2);
  return !all_match(delta, kInfrastructure) && !all_match(delta, kLayoutTransforms);
}

double sum_us(const std::vector<const DiffKernel*>& kernels) {
  double total = 0.0;
  for (const DiffKernel* k : kernels) total += k->dur_us;
  return total;
}

struct ComparativeCandidate {
  Candidate base;  // kernels = trace-1 kernels (the dedup key)
  std::vector<const DiffKernel*> trace1;
  std::vector<const DiffKernel*> trace2;
  double total_trace1_us = 0.0;
  double total_trace2_us = 0.0;
};

Json lca_json(const LcaId& id) {
  return id.is_float ? Json(static_cast<double>(id.value)) : Json(static_cast<long long>(id.value));
}

Json comparative_json(const ComparativeCandidate& c) {
  Json out = Json::object();
  out["module_name"] = Json(c.base.module_name);
  out["base_name"] = Json(c.base.base_name);
  Json chain = Json::array();
  for (const auto& p : c.base.parent_chain) chain.push_back(Json(p));
  out["parent_chain"] = std::move(chain);
  out["instance_count"] = Json(static_cast<long long>(c.base.instance_count));
  out["kernel_count_trace1"] = Json(static_cast<long long>(c.trace1.size()));
  out["kernel_count_trace2"] = Json(static_cast<long long>(c.trace2.size()));
  out["delta"] =
      Json(static_cast<long long>(c.trace1.size()) - static_cast<long long>(c.trace2.size()));
  Json t1 = Json::array();
  for (const DiffKernel* k : c.trace1) {
    Json kernel = Json::object();
    kernel["name"] = Json(k->name);
    kernel["type"] = Json(k->type);
    kernel["dur_us"] = Json(k->dur_us);
    kernel["lca_id"] = lca_json(k->lca);
    kernel["gpu_op_uid"] = Json(static_cast<long long>(k->gpu_op_uid));
    t1.push_back(std::move(kernel));
  }
  out["kernels_trace1"] = std::move(t1);
  Json t2 = Json::array();
  for (const DiffKernel* k : c.trace2) {
    Json kernel = Json::object();
    kernel["name"] = Json(k->name);
    kernel["type"] = Json(k->type);
    kernel["dur_us"] = Json(k->dur_us);
    t2.push_back(std::move(kernel));
  }
  out["kernels_trace2"] = std::move(t2);
  Json signature = Json::array();
  for (const auto& type : c.base.type_signature) signature.push_back(Json(type));
  out["kernel_type_signature"] = std::move(signature);
  Json summary = Json::object();
  for (const auto& [type, n] : c.base.type_summary) summary[type] = Json(static_cast<long long>(n));
  out["kernel_type_summary"] = std::move(summary);
  out["has_fused_kernel"] = Json(c.base.has_fused_kernel);
  out["total_kernel_time_us_trace1"] = Json(c.total_trace1_us);
  out["total_kernel_time_us_trace2"] = Json(c.total_trace2_us);
  out["input_dims"] = c.base.input_dims;
  return out;
}

ComparativeCandidate make_candidate(const trace::TraceModel& model, const trace::EventTree& tree,
                                    Uid uid, std::string base, std::vector<const DiffKernel*> t1,
                                    std::vector<const DiffKernel*> t2) {
  ComparativeCandidate c;
  c.base.module_name = std::string(model.name(uid));
  c.base.base_name = std::move(base);
  c.base.parent_chain = fusion::parent_chain(model, tree, uid);
  for (const DiffKernel* k : t1) {
    CandidateKernel kernel;
    kernel.name = k->name;
    c.base.kernels.push_back(std::move(kernel));
    c.base.type_signature.push_back(k->type);
    auto it = std::find_if(c.base.type_summary.begin(), c.base.type_summary.end(),
                           [&](const auto& entry) { return entry.first == k->type; });
    if (it == c.base.type_summary.end()) {
      c.base.type_summary.emplace_back(k->type, 1);
    } else {
      ++it->second;
    }
    c.base.has_fused_kernel = c.base.has_fused_kernel || fusion::kernel_already_fused(k->name);
  }
  c.base.input_dims = fusion::input_dims_of(model, uid);
  c.total_trace1_us = sum_us(t1);
  c.total_trace2_us = sum_us(t2);
  c.trace1 = std::move(t1);
  c.trace2 = std::move(t2);
  return c;
}

std::vector<ComparativeCandidate> extract(const trace::TraceModel& model,
                                          const trace::EventTree& tree, const DiffLookups& diff) {
  std::vector<ComparativeCandidate> found;
  std::unordered_map<std::string, std::size_t> seen_base;
  const auto count = static_cast<Uid>(model.event_count());
  for (Uid uid = 0; uid < count; ++uid) {
    if (fusion::skipped_category(model.event(uid).category)) continue;
    if (!tree.has_gpu_events(uid)) continue;
    std::vector<Uid> gpu = tree.gpu_events(uid);
    {  // dict.fromkeys: unique, first occurrence kept
      std::vector<Uid> unique;
      for (const Uid g : gpu) {
        if (std::find(unique.begin(), unique.end(), g) == unique.end()) unique.push_back(g);
      }
      gpu = std::move(unique);
    }
    if (gpu.size() < 2) continue;
    std::string base = strip_module_name(model.name(uid));
    if (base.empty()) continue;

    std::vector<const DiffKernel*> t1;
    std::vector<std::int64_t> lca_ids;
    for (const Uid g : gpu) {
      const auto it = diff.trace1_by_uid.find(g);
      if (it == diff.trace1_by_uid.end()) continue;
      t1.push_back(&it->second);
      lca_ids.push_back(it->second.lca.value);
    }
    // G3 (n1 <= 30) needs only trace 1; checking it first keeps the LCA set small.
    if (t1.size() < 2 || t1.size() > kMaxTrace1Kernels) continue;
    std::vector<const DiffKernel*> t2;
    for (const std::int64_t id : fusion::python_set_iteration_order(lca_ids)) {
      const auto it = diff.trace2_by_lca.find(id);
      if (it == diff.trace2_by_lca.end()) continue;
      for (const DiffKernel& k : it->second) t2.push_back(&k);
    }
    if (!passes_gates(t1, t2.size())) continue;

    if (const auto it = seen_base.find(base); it != seen_base.end()) {
      ComparativeCandidate& entry = found[it->second];
      entry.base.instance_count += 1;
      entry.total_trace1_us += sum_us(t1);
      entry.total_trace2_us += sum_us(t2);
      continue;
    }
    seen_base.emplace(base, found.size());
    found.push_back(
        make_candidate(model, tree, uid, std::move(base), std::move(t1), std::move(t2)));
  }
  return found;
}

}  // namespace

FusionCandidatesResult fusion_candidates_comparative(const trace::TraceModel& model,
                                                     const trace::EventTree& tree,
                                                     const CsvTable& diff_stats) {
  FusionCandidatesResult result;
  result.json = "[]";
  try {
    if (!diff_stats.find_column("lowest_common_ancestor_id") || diff_stats.row_count() == 0) {
      result.error = "diff_stats.csv is empty or has no lowest_common_ancestor_id column";
      return result;
    }
    const DiffLookups diff = read_diff_stats(diff_stats);
    if (diff.trace1_by_uid.empty()) {
      result.error = "diff_stats.csv names no trace-1 kernel UID";
      return result;
    }
    std::vector<ComparativeCandidate> found = extract(model, tree, diff);
    std::erase_if(found, [](const ComparativeCandidate& c) {
      return !(c.total_trace1_us >= c.total_trace2_us);
    });
    // Dedup by the trace-1 kernel-name tuple, with the standalone score (§2.6).
    std::vector<ComparativeCandidate> kept = fusion::dedup_by_kernel_set(
        std::move(found), [](const ComparativeCandidate& c) -> const Candidate& { return c.base; });
    std::stable_sort(kept.begin(), kept.end(),
                     [](const ComparativeCandidate& a, const ComparativeCandidate& b) {
                       return a.total_trace1_us > b.total_trace1_us;
                     });
    Json array = Json::array();
    for (const auto& c : kept) array.push_back(comparative_json(c));
    result.candidate_count = kept.size();
    result.json = dump_python_json(array);
  } catch (const std::exception& ex) {
    result = fusion::extraction_failed(ex);
  }
  return result;
}

}  // namespace loupe::core::prepare
