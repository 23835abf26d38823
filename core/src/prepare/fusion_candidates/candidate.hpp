// Internal model of fusion candidates shared by the extraction steps.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/core/prepare/fusion_candidates.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core::prepare::fusion {

using trace::Uid;

// One kernel of a candidate. Module-walk kernels use the keys name/type/eligible; sibling
// kernels use op/kernel_type/kernel_name (§1.2 b). The names are views of strings that outlive
// the extraction: the trace model's, the kernel classifier's cache (classify_cached) and the
// comparative diff table's. A whole-model module holds every kernel of a step, so copies of the
// names cost tens of MB on a big trace.
struct CandidateKernel {
  std::string_view name;
  std::string_view type;
  double dur_us = 0.0;
  bool eligible = true;
  Uid gpu_op_uid = trace::kNoUid;
  bool dur_is_int = false;  // Python int (the trace wrote an integer dur)
  std::string_view op;      // sibling kernels only: the launching op's name
  std::optional<double> data_in_mb;
  std::optional<double> data_out_mb;
};

struct Candidate {
  bool sibling = false;
  std::string module_name;
  std::string base_name;
  std::vector<std::string> parent_chain;
  std::int64_t instance_count = 1;
  std::int64_t kernel_count = 0;
  std::int64_t eligible_kernel_count = 0;
  std::vector<CandidateKernel> kernels;
  std::vector<std::string_view> type_signature;                         // views, as kernels
  std::vector<std::pair<std::string_view, std::int64_t>> type_summary;  // first-appearance order
  bool has_fused_kernel = false;
  double total_kernel_time_us = 0.0;
  Json input_dims;           // null when the event has no "Input Dims"
  bool total_is_int = true;  // Python sum of ints stays an int
};

// Module-walk result (§2.3): entries in base_order, plus the count of distinct bases seen.
struct ModuleWalk {
  std::vector<Candidate> entries;
};

// --- helpers (names.cpp) ---
// The result TraceLens gives when extraction raises: the file is "[]" (§2.8).
FusionCandidatesResult extraction_failed(const std::exception& error);
bool kernel_eligible(std::string_view kernel_name);
bool kernel_already_fused(std::string_view kernel_name);  // attention/fmha/silu_and_mul ...
std::vector<std::string> parent_chain(const trace::TraceModel& model, const trace::EventTree& tree,
                                      Uid uid);
Json input_dims_of(const trace::TraceModel& model, Uid uid);  // args["Input Dims"] or null
bool skipped_category(trace::Category c);                     // _SKIP_CATEGORIES

// Duration of a GPU op in µs and whether Python holds it as an int.
struct Duration {
  double us = 0.0;
  bool is_int = false;
};
struct DurationReader {
  const trace::TraceModel& model;
  Duration operator()(Uid uid) const;
};

// --- classifier cache (kernel_classifier.cpp) ---
const std::string& classify_cached(std::string_view kernel_name);

// --- steps ---
ModuleWalk module_walk(const trace::TraceModel& model, const trace::EventTree& tree,
                       const DurationReader& dur);
std::vector<Candidate> sibling_sequences(const trace::TraceModel& model,
                                         std::span<const unified::CollectedEvent> collected,
                                         const DurationReader& dur);
bool is_gemm_norm_only(const Candidate& c);
std::vector<Candidate> filter_candidates(ModuleWalk walk, std::vector<Candidate> siblings);
void sort_by_total_time(std::vector<Candidate>& candidates);
Json standalone_candidate_json(const Candidate& c);

}  // namespace loupe::core::prepare::fusion
