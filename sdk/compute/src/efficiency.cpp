#include "loupe/compute/efficiency.hpp"

#include <cmath>
#include <cstdio>

#include "loupe/python_format.hpp"

namespace loupe::compute {

namespace {

Json rounded_or_null(double v, int digits) {
  return std::isnan(v) ? Json() : Json(py::round_half_even(v, digits));
}

// Python round(v, 2) keeps ints as ints; falsy values give null.
Json round_peak(const Json& v) {
  if (v.is_int()) return v.as_int() != 0 ? v : Json();
  if (v.is_double()) {
    return v.as_double() != 0.0 ? Json(py::round_half_even(v.as_double(), 2)) : Json();
  }
  if (v.is_bool()) return v.as_bool() ? Json(1) : Json();
  return Json();
}

std::string format_1f(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.1f", v);
  return buf;
}

}  // namespace

Json resolve_peak_maf(const JsonView& metadata, const std::optional<std::string>& compute_spec) {
  JsonView maf = metadata["max_achievable_tflops"];
  if (!maf.present() || maf.is_null()) maf = metadata["peak_bf16_maf_tflops"];
  if (!maf.present() || maf.is_null()) return Json(1);
  if (maf.is_object()) {
    if (compute_spec && !compute_spec->empty() && maf[*compute_spec].present()) {
      return maf[*compute_spec].to_json();
    }
    const JsonView bf16 = maf["matrix_bf16"];
    return bf16.present() ? bf16.to_json() : Json(1);
  }
  return maf.to_json();
}

Efficiency compute_efficiency(const EfficiencyInputs& in, const JsonView& metadata,
                              bool comparative) {
  Efficiency out;
  if (in.roofline_bound == "COMPUTE_BOUND") out.bound_type = "compute";
  if (in.roofline_bound == "MEMORY_BOUND") out.bound_type = "memory";

  if (!comparative) {
    if (!std::isnan(in.pct_roofline_mean)) {
      const double eff = py::round_half_even(in.pct_roofline_mean, 2);
      out.efficiency_percent = eff;
      if (eff > 110) {
        out.warning =
            "[ANOMALY] Pct Roofline exceeds 110% (" + format_1f(eff) + "%) - verify measurement";
        out.is_anomaly = true;
      }
    }
  } else {
    const double t1 = in.kernel_time_us;
    if (!std::isnan(t1) && t1 > 0) {
      std::optional<double> c;
      if (!std::isnan(in.delta_us)) {
        c = 100 * (t1 + in.delta_us) / t1;
      } else if (!std::isnan(in.speedup) && in.speedup >= 0) {
        c = 100 * in.speedup;
      }
      if (c) {
        bool clamped = false;
        if (!std::isnan(in.pct_roofline_mean) && *c < in.pct_roofline_mean) {
          c = in.pct_roofline_mean;
          clamped = true;
        }
        const double eff = py::round_half_even(*c, 2);
        out.efficiency_percent = eff;
        if (clamped) {
          out.warning = "[ROOFLINE CAP] Projected efficiency clamped to roofline (" +
                        format_1f(eff) + "%); trace2 gap exceeds trace1 hardware ceiling.";
        }
      }
    }
  }

  const double fpb = std::isnan(in.flops_per_byte) ? 0.0 : in.flops_per_byte;
  const JsonView hbm = metadata["peak_hbm_bw_tbs"];
  const Json hbm_value = hbm.present() && !hbm.is_null() ? hbm.to_json() : Json(1);

  Json& j = out.json;
  j = Json::object();
  j["tflops_achieved"] = rounded_or_null(in.tflops_mean, 2);
  j["tb_s_achieved"] = rounded_or_null(in.tb_s_mean, 2);
  j["efficiency_percent"] = out.efficiency_percent ? Json(*out.efficiency_percent) : Json();
  j["bound_type"] = out.bound_type ? Json(*out.bound_type) : Json();
  j["flops_per_byte"] = fpb != 0 ? Json(py::round_half_even(fpb, 2)) : Json();
  j["compute_spec"] =
      in.compute_spec && !in.compute_spec->empty() ? Json(*in.compute_spec) : Json();
  j["resolved_peak_maf"] = round_peak(resolve_peak_maf(metadata, in.compute_spec));
  j["resolved_peak_hbm_bw"] = round_peak(hbm_value);
  j["warning"] = out.warning ? Json(*out.warning) : Json();
  j["is_anomaly"] = out.is_anomaly;
  return out;
}

Json metadata_member(const JsonView& metadata, std::string_view key) {
  const JsonView v = metadata[key];
  return v.present() ? v.to_json() : Json();
}

void append_peak_specs(Json& block, const JsonView& metadata) {
  const JsonView maf = metadata["max_achievable_tflops"];
  block["peak_maf_tflops"] = maf.is_object() ? metadata_member(maf, "matrix_bf16")
                                             : metadata_member(metadata, "peak_bf16_maf_tflops");
  block["peak_hbm_bw_tbs"] = metadata_member(metadata, "peak_hbm_bw_tbs");
}

}  // namespace loupe::compute
