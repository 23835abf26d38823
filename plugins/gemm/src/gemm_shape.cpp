#include "gemm_shape.hpp"

#include <algorithm>

#include "loupe/compute/py_literal.hpp"

namespace loupe::gemm {

namespace {

std::optional<std::int64_t> int_member(const compute::PyValue& dict, std::string_view key) {
  const compute::PyValue* v = dict.get(key);
  if (v == nullptr || !v->is_int()) return std::nullopt;
  return v->as_int();
}

std::optional<std::int64_t> json_int(const Json& object, std::string_view key) {
  const Json* v = object.find(key);
  if (v == nullptr || !v->is_int()) return std::nullopt;
  return v->as_int();
}

std::int64_t round_up(std::int64_t v, std::int64_t multiple) {
  return (v + multiple - 1) / multiple * multiple;
}

bool power_of_two(std::int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

}  // namespace

std::optional<GemmDims> dims_from_perf_params(std::string_view perf_params) {
  const auto value = compute::parse_py_literal(perf_params);
  if (!value || !value->is_dict()) return std::nullopt;
  const auto m = int_member(*value, "M");
  const auto n = int_member(*value, "N");
  const auto k = int_member(*value, "K");
  if (!m || !n || !k || *m <= 0 || *n <= 0 || *k <= 0) return std::nullopt;
  GemmDims dims{*m, *n, *k, 1};
  if (const auto b = int_member(*value, "B"); b && *b > 0) dims.batch = *b;
  return dims;
}

Json dims_json(const GemmDims& dims) {
  Json out = Json::object();
  out["M"] = dims.m;
  out["N"] = dims.n;
  out["K"] = dims.k;
  out["B"] = dims.batch;
  return out;
}

std::optional<GemmDims> dims_from_json(const Json& value) {
  if (!value.is_object()) return std::nullopt;
  const auto m = json_int(value, "M");
  const auto n = json_int(value, "N");
  const auto k = json_int(value, "K");
  if (!m || !n || !k || *m <= 0 || *n <= 0 || *k <= 0) return std::nullopt;
  const std::int64_t batch = json_int(value, "B").value_or(1);
  return GemmDims{*m, *n, *k, batch > 0 ? batch : 1};
}

std::int64_t output_tiles(const GemmDims& dims) {
  return dims.batch * ((dims.m + kTileEdge - 1) / kTileEdge) *
         ((dims.n + kTileEdge - 1) / kTileEdge);
}

ShapeDiagnosis diagnose(const GemmDims& dims, bool memory_bound,
                        std::optional<double> efficiency_percent) {
  ShapeDiagnosis d;
  d.output_tiles = output_tiles(dims);
  const std::int64_t large = std::max(dims.m, dims.n);
  const std::int64_t narrow = std::min(dims.m, dims.n);
  if (memory_bound && narrow <= kSkinnyEdge && large >= 16 * narrow) {
    d.pattern = ShapePattern::TallSkinny;
    return d;
  }
  if (memory_bound && dims.k <= kSkinnyEdge && narrow >= 16 * dims.k) {
    d.pattern = ShapePattern::ShortK;
    return d;
  }
  const std::pair<char, std::int64_t> named[] = {{'M', dims.m}, {'N', dims.n}, {'K', dims.k}};
  // The loads run along K (of A) and N (of B and C): those set the vector alignment.
  for (const auto& [name, v] : named) {
    if (name != 'M' && v % kVectorAlign != 0) {
      d.pad.push_back({name, v, round_up(v, kTileMultiple)});
    }
  }
  if (!d.pad.empty()) {
    d.pattern = ShapePattern::Misaligned;
    return d;
  }
  // The share of the padded size that the last tile leaves empty must explain the gap.
  const double gap = efficiency_percent ? std::max(0.0, 1.0 - *efficiency_percent / 100.0) : 0.0;
  const double needed = efficiency_percent ? 0.5 * gap : kMinTileWaste;
  for (const auto& [name, v] : named) {
    if (v > kTileMultiple && v % kTileMultiple != 0 && !power_of_two(v)) {
      const std::int64_t to = round_up(v, kTileMultiple);
      const double waste = static_cast<double>(to - v) / static_cast<double>(to);
      if (waste >= needed && waste > 0.0) d.pad.push_back({name, v, to});
    }
  }
  if (!d.pad.empty()) {
    d.pattern = ShapePattern::OffTile;
    return d;
  }
  if (!memory_bound && d.output_tiles < kFewTiles && dims.k >= kLongK && dims.k >= 4 * large) {
    d.pattern = ShapePattern::FewTiles;
  }
  return d;
}

}  // namespace loupe::gemm
