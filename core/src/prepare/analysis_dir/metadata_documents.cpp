#include "metadata_documents.hpp"

namespace loupe::core::prepare::analysis_dir {
namespace {

Json spec_value(const Json& spec, std::string_view key) {
  const Json* v = spec.find(key);
  return v != nullptr ? *v : Json();
}

}  // namespace

Json metadata_base(const DocumentContext& ctx, const std::string& display_name,
                   const std::string& category_name) {
  Json out = Json::object();
  out["platform"] = ctx.platform;
  const Json bw = spec_value(ctx.arch_spec, "mem_bw_gbps");
  out["peak_hbm_bw_tbs"] = bw.is_number() ? Json(bw.as_double() / 1000) : Json();
  out["max_achievable_tflops"] = spec_value(ctx.arch_spec, "max_achievable_tflops");
  out["memory_gb"] = spec_value(ctx.arch_spec, "memory_gb");
  out["trace_path"] = ctx.trace_path;
  out["output_dir"] = ctx.output_dir;
  out["category"] = display_name;
  out["category_name"] = category_name;
  out["gpu_utilization"] = ctx.gpu_utilization;
  return out;
}

Json model_info_document() {
  Json out = Json::object();
  for (const char* key : {"model", "architecture", "scale", "precision"}) {
    out[key] = "Cannot be inferred from trace";
  }
  return out;
}

Json cpu_idle_entry(const DocumentContext& ctx) {
  Json e = Json::object();
  e["name"] = "cpu_idle";
  e["display_name"] = "CPU/Idle Analysis";
  e["skill"] = "cpu-idle-analyzer";
  e["tier"] = "system";
  e["ops_count"] = 0;
  e["csv_file"] = ctx.output_dir + "/category_data/cpu_idle_ops.csv";
  e["metadata_file"] = ctx.output_dir + "/metadata/cpu_idle_metadata.json";
  e["priority"] = 0;
  return e;
}

Json multi_kernel_entry(const DocumentContext& ctx) {
  Json e = Json::object();
  e["name"] = "multi_kernel";
  e["display_name"] = "Multi-Kernel Issues";
  e["skill"] = "multi-kernel-analyzer";
  e["tier"] = "system";
  e["ops_count"] = 0;
  e["csv_file"] = nullptr;
  e["metadata_file"] = ctx.output_dir + "/metadata/multi_kernel_metadata.json";
  e["data_file"] = ctx.output_dir + "/category_data/multi_kernel_data.json";
  return e;
}

Json kernel_fusion_entry(const DocumentContext& ctx, std::size_t candidate_count) {
  Json e = Json::object();
  e["name"] = "kernel_fusion";
  e["display_name"] = "Kernel Fusion Opportunities";
  e["skill"] = "kernel-fusion-analyzer";
  e["tier"] = "system";
  e["ops_count"] = candidate_count;
  e["csv_file"] = nullptr;
  e["metadata_file"] = nullptr;
  e["data_file"] = ctx.output_dir + "/category_data/fusion_candidates.json";
  // Step 5.5 gives this entry the breakdown of an empty frame (docs/contracts/fusion.md Q32).
  e["gpu_kernel_time_ms"] = 0.0;
  e["cpu_duration_ms"] = 0.0;
  e["sync_time_ms"] = 0;
  e["sync_ops_count"] = 0;
  e["has_sync_bottleneck"] = false;
  return e;
}

}  // namespace loupe::core::prepare::analysis_dir
