// What the pseudo-op recognizers share (pseudo_ops.hpp): TraceLens's name index of the tree,
// arg readers, and the three ways a pseudo op goes into the tree.
#pragma once

#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <rapidjson/document.h>

#include "loupe/core/trace/pseudo_ops.hpp"

namespace loupe::core::trace::pseudo {

// Ops of the tree by name, in TraceLens's name-index order: the host nodes by start time
// (stable), then the linked GPU ops in link order; names in order of first appearance. Ops
// added later are not indexed (TraceLens does not index them either).
class NameIndex {
 public:
  NameIndex(const TraceModel& model, const EventTree& tree);
  bool contains(const TraceModel& model, std::string_view name) const;
  const std::vector<Uid>& uids(const TraceModel& model, std::string_view name) const;
  // (name id, uids) in first-appearance order.
  const std::vector<std::pair<StringId, std::vector<Uid>>>& entries() const { return entries_; }

 private:
  std::vector<std::pair<StringId, std::vector<Uid>>> entries_;
  std::unordered_map<StringId, std::size_t> slot_;
};

// An extra arg: key and the value's compact JSON text.
using ExtraArgs = std::vector<std::pair<std::string, std::string>>;
std::string json_string(std::string_view text);

// Shape args given explicitly (a nullopt falls back to the default donor's).
struct ShapeArgs {
  std::optional<std::string> input_dims, input_type, input_strides, concrete_inputs;
};
// The donor's four shape args (nullopt where it has none).
ShapeArgs shape_args_of(const TraceModel& model, Uid donor);

// Why an injection raised in TraceLens (empty: it went in, or was skipped).
using InjectionError = std::string;
struct RecognizerResult {
  InjectionError error;  // non-empty: the recognizer stopped there
};

struct Context {
  TraceModel& model;
  EventTree& tree;
  const NameIndex& names;
  Uid first_added = kNoUid;  // UID of the first op added (the model's event count before)
  std::size_t created = 0;

  // `op -> PSEUDO -> launcher -> kernel` for the kernel's launcher under `op` (the launcher's
  // parent): no ts/dur, External id = the kernel's correlation, `shapes` over op's own; PSEUDO
  // is appended to op's children, the launcher keeps its parent link.
  InjectionError above_launcher(Uid kernel, std::string_view name, std::int64_t sequence,
                                const ShapeArgs& shapes, const ExtraArgs& extra);
  // `parent -> PSEUDO -> (all former children)`: ts/dur of parent, shapes and sequence number of
  // `donor`; the CPU roots inside move to PSEUDO. Nothing when parent has no children.
  InjectionError wrap_children(Uid parent, std::string_view name, Uid donor,
                               const ExtraArgs& extra);
  // `parent -> PSEUDO -> target` in target's slot: ts/dur of target, shapes of `donor`
  // (kNoUid: the parent). Nothing when target has no parent.
  InjectionError above_event(Uid target, std::string_view name, Uid donor, const ExtraArgs& extra);
};

// The sequence number an op's args record, else `fallback`.
std::int64_t sequence_or(const TraceModel& model, Uid uid, std::int64_t fallback);
// Python's int() of an arg value: an integer (a JSON number or a numeral string), else nullopt.
std::optional<std::int64_t> python_int(std::string_view json_text);
std::optional<std::int64_t> python_int(const rapidjson::Value& value);
// An arg of the op parsed (null Value when absent or not JSON).
rapidjson::Document arg_json(const TraceModel& model, Uid uid, std::string_view key);
// The nearest host ancestor named `name` (kNoUid when none).
Uid ancestor_named(const TraceModel& model, const EventTree& tree, Uid uid, std::string_view name);
bool contains_lower(std::string_view text, std::string_view lower_needle);
bool is_python_frame(const TraceModel& model, Uid uid);

// The Python frames (category python_function) whose name `frame` matches (search), in
// name-index order.
std::vector<Uid> python_frames_matching(const Context& ctx, const std::regex& frame);
// For each such frame with a descendant op named `donor_name` (depth-first, first found) and GPU
// work: `pseudo_name` wrapping the frame's children, shapes from that op (MLA decode/prefill).
RecognizerResult wrap_attention_frames(Context& ctx, const std::regex& frame,
                                       std::string_view donor_name, std::string_view pseudo_name);

// The recognizers, one file each: the ops each creates; a non-empty error stops it.
RecognizerResult moe_aiter_fused(Context& ctx);
RecognizerResult moe_triton_unfused(Context& ctx);
RecognizerResult moe_gptq_awq(Context& ctx);
RecognizerResult moe_flydsl(Context& ctx);
RecognizerResult mla_decode(Context& ctx);
RecognizerResult mla_prefill(Context& ctx);
RecognizerResult v4_paged_decode(Context& ctx, const PseudoOpOptions& options);

}  // namespace loupe::core::trace::pseudo
