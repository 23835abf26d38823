#include "diff_rows.hpp"

#include <algorithm>
#include <unordered_map>
#include <utility>

#include "json_text.hpp"
#include "loupe/core/prepare/ops_tables.hpp"
#include "loupe/core/prepare/py_repr.hpp"

namespace loupe::core::prepare::trace_diff {
namespace {

// re.sub(r"\(\d+\)", "", name): drops "(<digits>)" groups (python frame line numbers).
std::string strip_paren_numbers(const std::string& name) {
  std::string out;
  out.reserve(name.size());
  for (std::size_t i = 0; i < name.size();) {
    if (name[i] == '(') {
      std::size_t j = i + 1;
      while (j < name.size() && name[j] >= '0' && name[j] <= '9') ++j;
      if (j > i + 1 && j < name.size() && name[j] == ')') {
        i = j + 1;
        continue;
      }
    }
    out.push_back(name[i++]);
  }
  return out;
}

// str() of an arg after TraceLens's list -> tuple conversion; "" when absent or null. The
// conversion depends on the arg's JSON text only, so it is made once per distinct text (most
// ops repeat the shapes of earlier iterations).
class ArgTexts {
 public:
  std::string get(const trace::TraceModel& model, trace::Uid uid, const char* key) {
    auto text = model.arg_text(uid, key);
    if (!text) return {};
    const auto [it, inserted] = converted_.try_emplace(std::move(*text));
    if (inserted) {
      const Json value = parse_json_text(it->first);
      if (!value.is_null()) it->second = py_json_str(value, true);
    }
    return it->second;
  }

 private:
  std::unordered_map<std::string, std::string> converted_;
};

struct Lca {
  std::optional<std::string> name;
  std::optional<std::size_t> id;
};

class RowCollector {
 public:
  RowCollector(const MergedTree& merged, const DiffSide& side1, const DiffSide& side2)
      : merged_(merged), side1_(side1), side2_(side2) {}

  std::vector<DiffStatsRow> run() {
    for (const std::size_t root : merged_.roots) traverse(root, std::nullopt);
    return std::move(rows_);
  }

 private:
  const DiffSide& side(DiffSource s) const { return s == DiffSource::kTrace1 ? side1_ : side2_; }

  // GPUEventAnalyser busy time of the kernels; the float 0.0 when there are none.
  PandasNumber busy_time(const DiffSide& s, const std::vector<trace::Uid>& kernels) const {
    if (kernels.empty()) return PandasNumber{0.0, false};
    return gpu_busy_time(s.model(), kernels);
  }

  void add_rows(DiffSource source, const std::vector<trace::Uid>& kernels, const Lca& lca) {
    const DiffSide& s = side(source);
    const PandasNumber busy = busy_time(s, kernels);
    for (const trace::Uid kernel : kernels) {
      trace::Uid op = s.parent(kernel);
      while (op != trace::kNoUid && !s.is_cpu_op(op)) op = s.parent(op);
      if (op == trace::kNoUid) continue;
      const trace::TraceModel& model = s.model();
      DiffStatsRow row;
      row.name = std::string(model.name(kernel));
      row.cpu_op_name = s.op_name(op);
      row.cpu_op_uid = op;
      row.source = source;
      row.input_dims = args_.get(model, op, "Input Dims");
      row.input_strides = args_.get(model, op, "Input Strides");
      row.input_type = args_.get(model, op, "Input type");
      row.concrete_inputs = args_.get(model, op, "Concrete Inputs");
      if ((model.event(kernel).flags & trace::kHasDur) != 0) {
        row.kernel_time = PandasNumber{model.dur_us(kernel), model.dur_is_integer(kernel)};
      } else {
        row.kernel_time = PandasNumber{0.0, true};
      }
      row.busy_time = busy;
      row.lca_name = lca.name;
      row.lca_id = lca.id;
      row.gpu_op_uid = kernel;
      const std::vector<std::string> stack = s.tree().nn_module_stack(op);
      for (std::size_t k = 0; k < stack.size(); ++k) {
        if (k > 0) row.nn_module_stack.push_back(';');
        row.nn_module_stack += stack[k];
      }
      row.nn_module_parent = stack.empty() ? std::string() : stack.back();
      rows_.push_back(std::move(row));
    }
  }

  // GPU ops under the one-sided children, plus the children (and the node) that are kernels.
  std::vector<trace::Uid> kernels_of(const DiffSide& s, const std::vector<trace::Uid>& children,
                                     trace::Uid node) const {
    std::vector<trace::Uid> kernels;
    for (const trace::Uid child : children) {
      const auto below = s.tree().gpu_events(child);
      kernels.insert(kernels.end(), below.begin(), below.end());
      if (s.is_kernel(child)) kernels.push_back(child);
    }
    if (s.is_kernel(node)) kernels.push_back(node);
    return kernels;
  }

  void visit_combined(std::size_t id, const MergedNode& node) {
    if (!side1_.gpu_path(node.uid1) || !side2_.gpu_path(node.uid2)) return;
    std::vector<std::size_t> one_sided;
    std::vector<trace::Uid> children1, children2;
    for (const std::size_t child_id : node.children) {
      const MergedNode& child = merged_.nodes[child_id];
      if (child.combined()) continue;
      if (child.uid1 != trace::kNoUid && side1_.gpu_path(child.uid1)) {
        children1.push_back(child.uid1);
        one_sided.push_back(child_id);
      }
      if (child.uid2 != trace::kNoUid && side2_.gpu_path(child.uid2)) {
        children2.push_back(child.uid2);
        one_sided.push_back(child_id);
      }
    }
    const bool kernel_pair = side1_.is_kernel(node.uid1) && side2_.is_kernel(node.uid2);
    if (one_sided.empty() && !kernel_pair) return;
    const std::string name1 = strip_paren_numbers(side1_.op_name(node.uid1));
    const std::string name2 = strip_paren_numbers(side2_.op_name(node.uid2));
    const Lca lca{name1 == name2 ? name1 : name1 + " | " + name2, id};
    add_rows(DiffSource::kTrace1, kernels_of(side1_, children1, node.uid1), lca);
    add_rows(DiffSource::kTrace2, kernels_of(side2_, children2, node.uid2), lca);
    visited_[id] = true;
    for (const std::size_t child_id : one_sided) visited_[child_id] = true;
  }

  // A node present in one trace only: its kernels, under its (combined) parent.
  void visit_one_sided(std::size_t id, const MergedNode& node,
                       std::optional<std::size_t> parent_id) {
    const DiffSource source =
        node.uid1 != trace::kNoUid ? DiffSource::kTrace1 : DiffSource::kTrace2;
    const DiffSide& s = side(source);
    const trace::Uid uid = source == DiffSource::kTrace1 ? node.uid1 : node.uid2;
    if (s.gpu_path(uid)) {
      Lca lca;
      if (parent_id) {
        const MergedNode& parent = merged_.nodes[*parent_id];
        lca.id = parent_id;
        const trace::Uid parent_uid = source == DiffSource::kTrace1 ? parent.uid1 : parent.uid2;
        if (parent_uid != trace::kNoUid) lca.name = strip_paren_numbers(s.op_name(parent_uid));
      }
      add_rows(source, s.tree().gpu_events(uid), lca);
    }
    visited_[id] = true;
  }

  // The recursive walk of generate_diff_stats with an explicit stack: children are pushed in
  // reverse so they are visited in order, each one's subtree before the next sibling, and the
  // visited test is made when a node is reached (a sibling's visit can mark it).
  void traverse(std::size_t start, std::optional<std::size_t> start_parent) {
    std::vector<std::pair<std::size_t, std::optional<std::size_t>>> todo{{start, start_parent}};
    while (!todo.empty()) {
      const auto [id, parent_id] = todo.back();
      todo.pop_back();
      if (visited_[id]) continue;
      const MergedNode& node = merged_.nodes[id];
      if (!node.combined()) {
        visit_one_sided(id, node, parent_id);
        continue;
      }
      visit_combined(id, node);
      if (!side1_.gpu_path(node.uid1) && !side2_.gpu_path(node.uid2)) continue;
      for (auto it = node.children.rbegin(); it != node.children.rend(); ++it) {
        todo.emplace_back(*it, id);
      }
    }
  }

  const MergedTree& merged_;
  const DiffSide& side1_;
  const DiffSide& side2_;
  std::vector<DiffStatsRow> rows_;
  ArgTexts args_;
  std::vector<bool> visited_ = std::vector<bool>(merged_.nodes.size());
};

}  // namespace

std::vector<DiffStatsRow> diff_stats_rows(const MergedTree& merged, const DiffSide& side1,
                                          const DiffSide& side2) {
  return RowCollector(merged, side1, side2).run();
}

}  // namespace loupe::core::prepare::trace_diff
