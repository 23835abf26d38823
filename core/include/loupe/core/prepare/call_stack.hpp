// The call-stack columns of unified_perf_summary.csv, `entry_point` and `call_stack_full`
// (docs/contracts/trace_model.md §3.6.4; TraceLens's --include_call_stack, which forces
// python_function events into the tree). Build the tree with add_python_func = true and
// TimeMode::kTraceLensCompat to match TraceLens.
//
// How TraceLens gets there, and what this header reproduces:
//  * While collecting unified rows (§3.6.1) TraceLens keeps a running stack of the names of
//    the nodes on the traversal path that pass the frame filter (is_call_stack_frame),
//    normalised by normalize_frame_name, and stores it on each collected node. The traversal
//    only descends from a node to its children; it starts at parentless python frames with
//    GPU work (python frames always descend to all their children), then at the
//    cpu_root_nodes not reached that way, each with an empty stack. So a node under a python
//    root gets the frames of its whole tree path, the node included; a node without python
//    ancestors gets the path from its cpu_op root down (host nodes above that root, i.e.
//    runtime calls enclosing a cpu_op, are not in the stack) — node_call_stack. Verified
//    against all 458 collected rows of the reference pack.
//  * Each kernel of a row gets `call_stack` = node stack + the filtered names of the kernel's
//    ancestors strictly below the node (runtime calls fail the filter; intermediate cpu_ops
//    such as aten::cudnn_convolution do not) — kernel_call_stack.
//  * A summary row's `call_stack_full` comes from its kernel_details_summary entries, i.e.
//    the template row's kernels in the summary's order (sorted by (total_duration_us, name),
//    NOT launch order): each chain is call_stack + [kernel name]; one kernel prints the chain
//    flat; several print the longest common prefix flat, then each distinct remaining tail
//    as a sub-list in first-seen order (merge_call_stacks / call_stack_full_repr).
//  * `entry_point` searches the flattened call_stack_full for the op (find_entry_point).
//  * Synthetic rows ("<A>-><kernel> (Synthetic Op)", §3.6.1) are copies of a node that was
//    never collected, so they carry no stack: call_stack_full = str([kernel name]) and the
//    op name is never found (synthetic_call_stack_columns).
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// The cell value TraceLens writes when a column cannot be derived.
inline constexpr std::string_view kCallStackNotFound = "Not found";

// --- frames ---------------------------------------------------------------------------

// §3.6.4 filter: a node contributes a frame if its name contains "nn.Module", "::" or "/",
// or it is a cpu_op.
bool is_call_stack_frame(std::string_view name, trace::Category category);

// re.sub(r"_\d+", "", name): every "_<digits>" run is removed, not only a suffix
// ("nn.Module: Linear_0" -> "nn.Module: Linear", "triton_poi_fused_add_0" ->
// "triton_poi_fused_add", "a_12_b_3c" -> "a_bc").
std::string normalize_frame_name(std::string_view name);

// The normalised frame of event `uid`, or nullopt when the filter rejects it.
std::optional<std::string> call_stack_frame(const trace::TraceModel& model, trace::Uid uid);

// --- stacks ---------------------------------------------------------------------------

// The stack TraceLens stores on collected node `node`: frames of its tree path from its
// traversal root (the parentless python frame on top, else its cpu_op root) down to and
// including `node`.
std::vector<std::string> node_call_stack(const trace::TraceModel& model,
                                         const trace::EventTree& tree, trace::Uid node);

// Frames of the ancestors of `kernel` strictly below `node`, outermost first. When `node` is
// not an ancestor of `kernel` (a pseudo op inserted above a launch, trace/pseudo_ops.hpp),
// TraceLens's walk runs to the root: every ancestor's frame.
std::vector<std::string> frames_below(const trace::TraceModel& model, const trace::EventTree& tree,
                                      trace::Uid node, trace::Uid kernel);

// A kernel's `call_stack` in kernel_details: node_stack + frames_below(node, kernel).
std::vector<std::string> kernel_call_stack(const trace::TraceModel& model,
                                           const trace::EventTree& tree, trace::Uid node,
                                           std::span<const std::string> node_stack,
                                           trace::Uid kernel);

// --- call_stack_full ------------------------------------------------------------------

// call_stack_full before printing: `common` printed flat, then each tail as a sub-list.
// A single chain is all `common` with no tails.
struct MergedCallStack {
  std::vector<std::string> common;
  std::vector<std::vector<std::string>> tails;
};

// Merges the chains (call_stack + [kernel name]) of a row's kernels in summary order: one
// chain stays flat; several are split into their longest common prefix and the distinct
// remaining tails (first-seen order; duplicates dropped). If all chains are equal the one
// tail is empty (never seen in the reference pack; TraceLens's output there is unverified).
MergedCallStack merge_call_stacks(std::span<const std::vector<std::string>> chains);

// str() of the merged stack: "['a', 'b', ['c', 'k1'], ['d', 'k2']]".
std::string call_stack_full_repr(const MergedCallStack& merged);

// What ast.literal_eval + flatten give back: common frames then every tail, in order.
std::vector<std::string> flatten(const MergedCallStack& merged);

// --- entry_point ----------------------------------------------------------------------

// §3.6.4 wrapper frames, skipped by the outward search: names starting with "<built-in",
// "pybind11_builtins" or "nn.Module:"; paths containing torch/_ops.py, torch/nn/modules/
// module.py, ... (the spec's list); functions (text after the last "): ") such as
// _call_impl, wrapper, decorate_context, ...
bool is_wrapper_frame(std::string_view frame);

// The entry point of `op_name` in a flattened call_stack_full. The op's position is its last
// exact occurrence (else the last occurrence of the name with a trailing "_<digits>"
// removed). Then inward (toward the kernel): the first frame containing ".py" whose function
// part (after the last "): ") contains the op's local name (after the last "::"), both
// lower-cased (ASCII only; Python's str.lower also folds non-ASCII letters). Else outward
// (toward the root): the first ".py" frame that is not a wrapper. kCallStackNotFound when the
// op is absent or nothing qualifies.
std::string find_entry_point(std::span<const std::string> flat_stack, std::string_view op_name);

// --- the two cells of a summary row ---------------------------------------------------

struct CallStackColumns {
  std::string entry_point;
  std::string call_stack_full;
};

// Cells of a group whose template row is collected node `node` (its UID is the row's UID;
// for the first row of a group that is ex_UID). `kernels` = the template row's GPU ops
// (EventTree::gpu_events(node), §2.6 order) permuted into kernel_details_summary order, i.e.
// stable-sorted by (total_duration_us over the group at that position, kernel name).
// `op_name` = the row's `name`. No kernels -> both cells kCallStackNotFound.
CallStackColumns call_stack_columns(const trace::TraceModel& model, const trace::EventTree& tree,
                                    trace::Uid node, std::span<const trace::Uid> kernels,
                                    std::string_view op_name);

// Cells of a synthetic row ("<A>-><kernel> (Synthetic Op)"): no stack, so call_stack_full is
// the repr of [kernel name] (merged as above if ever several) and entry_point is "Not found"
// unless op_name itself occurs among the kernel names.
CallStackColumns synthetic_call_stack_columns(const trace::TraceModel& model,
                                              std::span<const trace::Uid> kernels,
                                              std::string_view op_name);

}  // namespace loupe::core::prepare
