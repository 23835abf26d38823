// Name index, arg readers and injections shared by the recognizers (pseudo_op_tree.hpp).
#include "pseudo_op_tree.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>

#include <rapidjson/document.h>

#include "loupe/text.hpp"

namespace loupe::core::trace::pseudo {

namespace {

constexpr std::string_view kInputDims = "Input Dims";
constexpr std::string_view kInputType = "Input type";
constexpr std::string_view kInputStrides = "Input Strides";
constexpr std::string_view kConcreteInputs = "Concrete Inputs";

bool is_host_node(const TraceModel& model, const EventTree& tree, Uid u) {
  const Category c = model.event(u).category;
  return c == Category::kCpuOp || is_runtime_category(c) ||
         (tree.options().add_python_func && c == Category::kPythonFunction);
}

// The added op's args: the four shapes (those present), then the extras in order.
void add_shape_args(AddedEvent& added, const ShapeArgs& shapes) {
  const std::pair<std::string_view, const std::optional<std::string>*> fields[] = {
      {kInputDims, &shapes.input_dims},
      {kInputType, &shapes.input_type},
      {kInputStrides, &shapes.input_strides},
      {kConcreteInputs, &shapes.concrete_inputs}};
  for (const auto& [key, value] : fields) {
    if (*value) added.args.emplace_back(std::string(key), **value);
  }
}

void add_extra_args(AddedEvent& added, const ExtraArgs& extra) {
  for (const auto& entry : extra) {
    const auto& key = entry.first;
    const auto& value = entry.second;
    // An extra named like an id replaces it (the flydsl stages restate the sequence number).
    if (key == "Sequence number") {
      if (const auto n = python_int(value)) added.sequence = *n;
      continue;
    }
    const auto same = std::find_if(added.args.begin(), added.args.end(),
                                   [&key](const auto& a) { return a.first == key; });
    if (same != added.args.end()) {
      same->second = value;
    } else {
      added.args.emplace_back(key, value);
    }
  }
}

}  // namespace

NameIndex::NameIndex(const TraceModel& model, const EventTree& tree) {
  const auto add = [this, &model](Uid u) {
    const StringId name = model.event(u).name;
    const auto [it, inserted] = slot_.emplace(name, entries_.size());
    if (inserted) entries_.emplace_back(name, std::vector<Uid>{});
    entries_[it->second].second.push_back(u);
  };
  const auto n = static_cast<Uid>(std::min(model.event_count(), tree.node_count()));
  std::vector<Uid> hosts;
  std::vector<Uid> runtimes;
  for (Uid u = 0; u < n; ++u) {
    if (tree.linked(u) && is_host_node(model, tree, u)) hosts.push_back(u);
    if (is_runtime_category(model.event(u).category)) runtimes.push_back(u);
  }
  std::stable_sort(hosts.begin(), hosts.end(),
                   [&model](Uid a, Uid b) { return model.ts_us(a) < model.ts_us(b); });
  for (const Uid u : hosts) add(u);
  for (const Uid r : runtimes) {
    for (const Uid c : tree.children(r)) {
      if (is_gpu_category(model.event(c).category)) add(c);
    }
  }
}

bool NameIndex::contains(const TraceModel& model, std::string_view name) const {
  const StringId id = model.strings().find(name);
  return id != kNoString && slot_.contains(id);
}

const std::vector<Uid>& NameIndex::uids(const TraceModel& model, std::string_view name) const {
  static const std::vector<Uid> kNone;
  const StringId id = model.strings().find(name);
  const auto it = id == kNoString ? slot_.end() : slot_.find(id);
  return it == slot_.end() ? kNone : entries_[it->second].second;
}

std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\u00";
      out += kHex[(c >> 4) & 0xF];
      out += kHex[c & 0xF];
    } else {
      out += c;
    }
  }
  return out + "\"";
}

ShapeArgs shape_args_of(const TraceModel& model, Uid donor) {
  ShapeArgs s;
  s.input_dims = model.arg_text(donor, kInputDims);
  s.input_type = model.arg_text(donor, kInputType);
  s.input_strides = model.arg_text(donor, kInputStrides);
  s.concrete_inputs = model.arg_text(donor, kConcreteInputs);
  return s;
}

std::int64_t sequence_or(const TraceModel& model, Uid uid, std::int64_t fallback) {
  const auto d = model.detail(uid);
  return d && d->sequence != kNoValue ? d->sequence : fallback;
}

std::optional<std::int64_t> python_int(std::string_view json_text) {
  rapidjson::Document doc;
  doc.Parse(json_text.data(), json_text.size());
  if (doc.HasParseError()) return std::nullopt;
  return python_int(static_cast<const rapidjson::Value&>(doc));
}

rapidjson::Document arg_json(const TraceModel& model, Uid uid, std::string_view key) {
  rapidjson::Document doc;
  const auto text = model.arg_text(uid, key);
  if (text) doc.Parse(text->data(), text->size());
  if (!text || doc.HasParseError()) doc.SetNull();
  return doc;
}

Uid ancestor_named(const TraceModel& model, const EventTree& tree, Uid uid, std::string_view name) {
  for (Uid a = tree.parent(uid); a != kNoUid; a = tree.parent(a)) {
    if (model.name(a) == name) return a;
  }
  return kNoUid;
}

bool contains_lower(std::string_view text, std::string_view lower_needle) {
  return text::ascii_lower(text).find(lower_needle) != std::string::npos;
}

std::optional<std::int64_t> python_int(const rapidjson::Value& doc) {
  if (doc.IsInt64()) return doc.GetInt64();
  if (doc.IsDouble()) {
    const double d = doc.GetDouble();
    if (!std::isfinite(d)) return std::nullopt;
    return static_cast<std::int64_t>(std::trunc(d));  // int(3.0) == 3
  }
  if (doc.IsBool()) return doc.GetBool() ? 1 : 0;
  if (!doc.IsString()) return std::nullopt;
  // int("4"), int(" -4 "): an optionally signed decimal numeral within whitespace.
  std::string_view s(doc.GetString(), doc.GetStringLength());
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  bool negative = false;
  if (!s.empty() && (s.front() == '+' || s.front() == '-')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || s.size() > 18 ||
      !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::nullopt;
  }
  std::int64_t v = 0;
  for (const char c : s) v = v * 10 + (c - '0');
  return negative ? -v : v;
}

bool is_python_frame(const TraceModel& model, Uid uid) {
  return model.event(uid).category == Category::kPythonFunction;
}

namespace {

// The op every injection creates: its name and thread, the shape args, the sequence number,
// "Pseudo op": true, then the extension's own args (which may restate the sequence number).
AddedEvent pseudo_event(std::string_view name, std::uint32_t thread, const ShapeArgs& shapes,
                        std::int64_t sequence, const ExtraArgs& extra) {
  AddedEvent added;
  added.name = std::string(name);
  added.thread = thread;
  add_shape_args(added, shapes);
  added.sequence = sequence;
  added.args.emplace_back("Pseudo op", "true");
  add_extra_args(added, extra);
  return added;
}

}  // namespace

InjectionError Context::above_launcher(Uid kernel, std::string_view name, std::int64_t sequence,
                                       const ShapeArgs& shapes, const ExtraArgs& extra) {
  const Uid launcher = tree.parent(kernel);
  const Uid op = launcher == kNoUid ? kNoUid : tree.parent(launcher);
  if (op == kNoUid) return "the launch of kernel " + std::to_string(kernel) + " has no parent op";
  const auto kernel_ids = model.detail(kernel);
  if (!kernel_ids || kernel_ids->correlation == kNoValue) {
    return "kernel " + std::to_string(kernel) + " has no correlation id";
  }
  if (model.event(op).thread == kNoIndex) return "op " + std::to_string(op) + " has no pid/tid";
  const ShapeArgs own = shape_args_of(model, op);
  AddedEvent added =
      pseudo_event(name, model.event(op).thread,
                   ShapeArgs{shapes.input_dims ? shapes.input_dims : own.input_dims,
                             shapes.input_type ? shapes.input_type : own.input_type,
                             shapes.input_strides ? shapes.input_strides : own.input_strides,
                             shapes.concrete_inputs ? shapes.concrete_inputs : own.concrete_inputs},
                   sequence, extra);
  added.external_id = kernel_ids->correlation;
  const Uid node = model.add_event(added);
  tree.add_node(node, op);
  tree.append_child(node, launcher);
  ++created;
  // A second kernel of one launch finds the launcher gone: TraceLens raises there, leaving the
  // op it just made outside the tree.
  if (!tree.remove_child(op, launcher)) {
    return "launcher " + std::to_string(launcher) + " is no longer a child of op " +
           std::to_string(op);
  }
  tree.append_child(op, node);
  return {};
}

InjectionError Context::wrap_children(Uid parent, std::string_view name, Uid donor,
                                      const ExtraArgs& extra) {
  const std::vector<Uid> children(tree.children(parent).begin(), tree.children(parent).end());
  if (children.empty()) return {};
  const Event& p = model.event(parent);
  if ((p.flags & kHasTs) == 0 || (p.flags & kHasDur) == 0 || p.thread == kNoIndex) {
    return "op " + std::to_string(parent) + " has no ts/dur/pid/tid";
  }
  AddedEvent added = pseudo_event(name, p.thread, shape_args_of(model, donor),
                                  sequence_or(model, donor, parent), extra);
  added.time_of = parent;
  const Uid node = model.add_event(added);
  tree.add_node(node, parent);
  tree.move_children(parent, node);
  tree.append_child(parent, node);
  ++created;
  // The CPU roots below now sit under the pseudo op, which becomes one.
  std::vector<Uid> todo(children.begin(), children.end());
  const auto& roots = tree.cpu_root_nodes();
  while (!todo.empty()) {
    const Uid u = todo.back();
    todo.pop_back();
    // Only a node flagged a root at the build, or an op added since, can be in the list.
    if ((tree.cpu_op_root(u) || u >= first_added) &&
        std::find(roots.begin(), roots.end(), u) != roots.end()) {
      tree.remove_cpu_root(u);
    }
    for (const Uid c : tree.children(u)) todo.push_back(c);
  }
  tree.append_cpu_root(node);
  return {};
}

InjectionError Context::above_event(Uid target, std::string_view name, Uid donor,
                                    const ExtraArgs& extra) {
  const Uid parent = tree.parent(target);
  if (parent == kNoUid) return {};
  const Event& t = model.event(target);
  const Uid shapes_from = donor != kNoUid ? donor : parent;
  AddedEvent added = pseudo_event(
      name, t.thread != kNoIndex ? t.thread : model.event(parent).thread,
      shape_args_of(model, shapes_from), sequence_or(model, shapes_from, parent), extra);
  added.time_of = target;
  const Uid node = model.add_event(added);
  tree.add_node(node, parent);
  tree.append_child(node, target);
  ++created;
  if (!tree.replace_child(parent, target, node)) {
    return "op " + std::to_string(target) + " is not a child of its parent " +
           std::to_string(parent);
  }
  tree.set_parent(target, node);
  return {};
}

std::vector<Uid> python_frames_matching(const Context& ctx, const std::regex& frame) {
  std::vector<Uid> out;
  for (const auto& [name, uids] : ctx.names.entries()) {
    const std::string_view text = ctx.model.str(name);
    if (!std::regex_search(text.begin(), text.end(), frame)) continue;
    for (const Uid u : uids) {
      if (is_python_frame(ctx.model, u)) out.push_back(u);
    }
  }
  return out;
}

namespace {

Uid descendant_named(const TraceModel& model, const EventTree& tree, Uid uid,
                     std::string_view name) {
  for (const Uid c : tree.children(uid)) {
    if (model.name(c) == name) return c;
    const Uid found = descendant_named(model, tree, c, name);
    if (found != kNoUid) return found;
  }
  return kNoUid;
}

}  // namespace

RecognizerResult wrap_attention_frames(Context& ctx, const std::regex& frame,
                                       std::string_view donor_name, std::string_view pseudo_name) {
  for (const Uid f : python_frames_matching(ctx, frame)) {
    const Uid donor = descendant_named(ctx.model, ctx.tree, f, donor_name);
    if (donor == kNoUid || !ctx.tree.has_gpu_events(f)) continue;
    auto error = ctx.wrap_children(f, pseudo_name, donor, {});
    if (!error.empty()) return {std::move(error)};
  }
  return {};
}

}  // namespace loupe::core::trace::pseudo
