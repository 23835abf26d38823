// Primus-Turbo / CK grouped GEMMs (GroupedGEMM sheet; docs/deviations.md, "Serving-engine
// ops"). Fixed K: X [M, K] split into G row groups, each times its own W_g [K, N]: flops
// 2·M·K·N, bytes (M·K + G·K·N)·in + M·N·out. Variable K: group i is X_i [M_i, K_i] @ W_i
// [K_i, N_i], summed per group. Two argument spellings are read: the compact one (X and the
// stacked W [G, K, N] or [G, N, K]; variable K: X [M, K] and Y [M, N] as one group) and the
// zipped one (a list of per-group X shapes and a list of per-group W shapes).
#include "model_support.hpp"

namespace loupe::core::prepare::perf::detail {
namespace {

using Pair = std::pair<std::int64_t, std::int64_t>;

bool positive_ints(const Json& v, std::size_t count) {
  if (!v.is_array() || v.size() < count) return false;
  for (std::size_t i = 0; i < count; ++i) {
    const Json& d = v.as_array()[i];
    if (!d.is_int() || d.as_int() <= 0) return false;
  }
  return true;
}

// Every (rows, cols) pair of positive ints in a nested list, depth first.
void collect_pairs(const Json& v, std::vector<Pair>& out) {
  if (!v.is_array()) return;
  if (v.size() == 2 && positive_ints(v, 2)) {
    out.emplace_back(v.as_array()[0].as_int(), v.as_array()[1].as_int());
    return;
  }
  for (const Json& item : v.as_array()) collect_pairs(item, out);
}

// The zipped spelling: per-group X shapes and W shapes, as many of each, chained on K.
std::optional<std::vector<std::pair<Pair, Pair>>> zipped(const Json& dims) {
  if (!dims.is_array() || dims.size() < 2) return std::nullopt;
  const Json& x = dims.as_array()[0];
  const Json& w = dims.as_array()[1];
  if (!x.is_array() || !w.is_array()) return std::nullopt;
  std::vector<Pair> lhs, rhs;
  collect_pairs(x, lhs);
  collect_pairs(w, rhs);
  if (lhs.empty() || rhs.empty() || lhs.size() != rhs.size()) return std::nullopt;
  std::vector<std::pair<Pair, Pair>> groups;
  for (std::size_t i = 0; i < lhs.size(); ++i) {
    if (lhs[i].second != rhs[i].first) return std::nullopt;
    groups.emplace_back(lhs[i], rhs[i]);
  }
  return groups;
}

struct Fixed {
  std::int64_t m = 0, k = 0, n = 0, g = 0;
};

std::optional<Fixed> fixed_dims(const Json& dims) {
  if (dims.is_array() && dims.size() >= 2) {
    const Json& a = dims.as_array()[0];
    const Json& b = dims.as_array()[1];
    if (positive_ints(a, 2) && b.is_array() && b.size() == 3 && positive_ints(b, 3)) {
      const std::int64_t m = a.as_array()[0].as_int(), k = a.as_array()[1].as_int();
      const std::int64_t b1 = b.as_array()[1].as_int(), b2 = b.as_array()[2].as_int();
      if (b1 == k) return Fixed{m, k, b2, b.as_array()[0].as_int()};
      if (b2 == k) return Fixed{m, k, b1, b.as_array()[0].as_int()};
      return std::nullopt;
    }
  }
  const auto groups = zipped(dims);
  if (!groups) return std::nullopt;
  const std::int64_t k = groups->front().first.second, n = groups->front().second.second;
  Fixed f{0, k, n, static_cast<std::int64_t>(groups->size())};
  for (const auto& [a, b] : *groups) {
    if (a.second != k || b.first != k || b.second != n) return std::nullopt;
    f.m += a.first;
  }
  return f;
}

std::optional<std::vector<std::pair<Pair, Pair>>> variable_groups(const Json& dims) {
  if (dims.is_array() && dims.size() >= 2) {
    const Json& a = dims.as_array()[0];
    const Json& b = dims.as_array()[1];
    if (a.is_array() && b.is_array() && a.size() == 2 && b.size() == 2 && positive_ints(a, 2) &&
        positive_ints(b, 2)) {
      const std::int64_t m = a.as_array()[0].as_int(), k = a.as_array()[1].as_int();
      return std::vector<std::pair<Pair, Pair>>{{{m, k}, {k, b.as_array()[1].as_int()}}};
    }
  }
  auto groups = zipped(dims);
  if (groups && groups->empty()) return std::nullopt;
  return groups;
}

PyValue pair_tuple(const Pair& p) { return tuple_of({py_int(p.first), py_int(p.second)}); }

}  // namespace

FamilyOutput grouped_gemm_model(ModelClass model, std::string_view name, const OpArgs& args,
                                Direction direction) {
  const Json empty = Json::array();
  const Json& dims = args.input_dims.is_null() ? empty : args.input_dims;
  const bool variable = model == ModelClass::kGroupedGemmVariableK;
  std::vector<std::pair<Pair, Pair>> groups;
  Fixed f;
  if (variable) {
    auto g = variable_groups(dims);
    if (!g) fail(std::string(name).append(" could not parse Input Dims"));
    groups = std::move(*g);
    f = {0, groups.front().first.second, groups.front().second.second,
         static_cast<std::int64_t>(groups.size())};
    for (const auto& [a, b] : groups) f.m += a.first;
  } else {
    const auto fixed = fixed_dims(dims);
    if (!fixed) fail(std::string(name).append(" could not parse Input Dims"));
    f = *fixed;
  }
  // Input type[0] is the input's dtype, [1] the output's (the input's when absent).
  const Json& types = args.input_types;
  const std::size_t num_types = types.is_array() ? types.size() : 0;
  const std::optional<std::string> dtype_in =
      num_types > 0 ? std::optional(string_at(types, 0, "Input type")) : std::nullopt;
  const std::optional<std::string> dtype_out =
      num_types > 1 ? std::optional(string_at(types, 1, "Input type")) : dtype_in;
  const auto bpe = [](const std::optional<std::string>& d) -> std::optional<int> {
    return d ? bytes_per_element(*d) : std::nullopt;
  };
  const std::optional<int> bpe_in = bpe(dtype_in);
  const std::optional<int> bpe_out = dtype_out ? bpe(dtype_out) : bpe_in;

  FamilyOutput out;
  out.params.emplace_back("M", py_int(f.m));
  out.params.emplace_back("K", py_int(f.k));
  out.params.emplace_back("N", py_int(f.n));
  out.params.emplace_back("G", py_int(f.g));
  out.params.emplace_back("bpe_in", bpe_in ? py_int(*bpe_in) : py_none());
  out.params.emplace_back("bpe_out", bpe_out ? py_int(*bpe_out) : py_none());
  if (variable) {
    std::vector<PyValue> items;
    for (const auto& [a, b] : groups) items.push_back(tuple_of({pair_tuple(a), pair_tuple(b)}));
    out.params.emplace_back("group_pairs", list_of(std::move(items)));
  }
  if (types.is_array() && num_types == 0) fail("Input type is empty");
  if (dtype_in && !dtype_in->empty()) {
    out.precision_dtype = *dtype_in;
    out.has_precision_dtype = true;
  }
  if (direction == Direction::kBackward) {
    not_implemented(std::string("Backward pass for ").append(name).append(" is not defined."));
  }

  if (!variable) {
    const PyInt M = f.m, K = f.k, N = f.n, G = f.g;
    out.flops = I(2 * M * K * N);
    if (!bpe_in || !bpe_out) fail("unsupported operand type(s) for *: 'int' and 'NoneType'");
    out.bytes = I((M * K + G * K * N) * *bpe_in + M * N * *bpe_out);
    return out;
  }
  PyInt flops = 0, bytes = 0;
  for (const auto& [a, b] : groups) {
    const PyInt M = a.first, K = a.second, N = b.second;
    flops += 2 * M * K * N;
    if (bpe_in && bpe_out) bytes += (M * K + K * N) * *bpe_in + M * N * *bpe_out;
  }
  out.flops = I(flops);
  if (bpe_in && bpe_out) out.bytes = I(bytes);
  return out;
}

}  // namespace loupe::core::prepare::perf::detail
