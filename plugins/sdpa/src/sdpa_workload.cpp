#include "sdpa_workload.hpp"

#include <cmath>

#include "loupe/compute/py_literal.hpp"
#include "loupe/python_format.hpp"

namespace loupe::sdpa {

namespace {

Json to_json(const compute::PyValue& v) {
  if (v.is_none()) return Json();
  if (v.is_bool()) return Json(v.as_bool());
  if (v.is_int()) return Json(v.as_int());
  if (v.is_float()) return Json(v.as_float());
  if (v.is_string()) return Json(v.as_string());
  if (v.is_sequence()) {
    Json out = Json::array();
    for (const auto& item : v.items()) out.push_back(to_json(item));
    return out;
  }
  return Json(v.repr());
}

std::optional<PyNumber> number_of(const compute::PyValue& v) {
  if (v.is_bool()) return PyNumber::integer(v.as_bool() ? 1 : 0);
  if (v.is_int()) return PyNumber::integer(v.as_int());
  if (v.is_float()) return PyNumber::real(v.as_float());
  return std::nullopt;
}

const compute::PyValue kNone;

const compute::PyValue& get(const compute::PyValue& dict, std::string_view key) {
  const compute::PyValue* v = dict.get(key);
  return v == nullptr ? kNone : *v;
}

}  // namespace

const char* workload_type_name(WorkloadType type) {
  switch (type) {
    case WorkloadType::PrefillHeavy:
      return "prefill_heavy";
    case WorkloadType::DecodeHeavy:
      return "decode_heavy";
    case WorkloadType::Mixed:
      return "mixed";
    case WorkloadType::Unknown:
      break;
  }
  return "unknown";
}

WorkloadType workload_type_for(double ctx_ratio) {
  if (ctx_ratio > 0.8) return WorkloadType::PrefillHeavy;
  if (ctx_ratio < 0.2) return WorkloadType::DecodeHeavy;
  return WorkloadType::Mixed;
}

WorkloadProfile parse_perf_params(std::string_view perf_params) {
  WorkloadProfile p;
  const auto parsed = compute::parse_py_literal(perf_params);
  if (!parsed || !parsed->is_dict()) return p;  // TraceLens: the exception leaves the defaults
  const compute::PyValue& params = *parsed;
  p.batch_size = to_json(get(params, "B"));
  p.n_q = to_json(get(params, "N_Q"));
  p.h_q = to_json(get(params, "H_Q"));
  p.n_kv = to_json(get(params, "N_KV"));
  p.h_kv = to_json(get(params, "H_KV"));
  p.d_h_qk = to_json(get(params, "d_h_qk"));
  p.d_h_v = to_json(get(params, "d_h_v"));
  p.causal = to_json(get(params, "causal"));

  const compute::PyValue zero(static_cast<std::int64_t>(0));
  const compute::PyValue* ctx = params.get("sum_ctx_tokens");
  const compute::PyValue* gen = params.get("sum_gen_tokens");
  p.sum_ctx_tokens = to_json(ctx != nullptr ? *ctx : zero);
  p.sum_gen_tokens = to_json(gen != nullptr ? *gen : zero);
  p.ctx_tokens = number_of(ctx != nullptr ? *ctx : zero);
  p.gen_tokens = number_of(gen != nullptr ? *gen : zero);
  if (!p.ctx_tokens || !p.gen_tokens) return p;  // TraceLens: TypeError stops here

  const PyNumber total = *p.ctx_tokens + *p.gen_tokens;
  if (total.value() > 0) {
    const double ratio = p.ctx_tokens->value() / total.value();
    p.ctx_ratio = py::round_half_even(ratio, 3);
    p.workload_type = workload_type_for(ratio);
  }

  const auto h_q = number_of(get(params, "H_Q"));
  const auto h_kv = number_of(get(params, "H_KV"));
  if (!get(params, "H_Q").truthy() || !get(params, "H_KV").truthy()) return p;
  if (!h_q || !h_kv) return p;
  if (h_kv->value() < h_q->value()) {
    p.attention_pattern = "GQA";
    if (h_q->is_int() && h_kv->is_int()) {
      const std::int64_t n = h_q->int_value();
      const std::int64_t d = h_kv->int_value();
      std::int64_t q = n / d;  // Python's n // d: rounds toward negative infinity
      if ((n % d != 0) && ((n < 0) != (d < 0))) --q;
      p.gqa_ratio = q;
    } else {
      p.gqa_ratio = std::floor(h_q->value() / h_kv->value());
    }
  } else if (h_kv->value() == h_q->value()) {
    p.attention_pattern = "MHA";
  } else {
    p.attention_pattern = "unknown";
  }
  return p;
}

Json workload_profile_json(const WorkloadProfile& p) {
  Json out = Json::object();
  out["n_q"] = p.n_q;
  out["n_kv"] = p.n_kv;
  out["h_q"] = p.h_q;
  out["h_kv"] = p.h_kv;
  out["sum_ctx_tokens"] = p.sum_ctx_tokens;
  out["sum_gen_tokens"] = p.sum_gen_tokens;
  out["ctx_ratio"] = p.ctx_ratio;
  out["workload_type"] = workload_type_name(p.workload_type);
  out["attention_pattern"] = p.attention_pattern;
  out["gqa_ratio"] = p.gqa_ratio;
  return out;
}

}  // namespace loupe::sdpa
