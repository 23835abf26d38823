#include "vendor_category_split.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <unordered_map>

#include "pandas_csv_roundtrip.hpp"

namespace loupe::core::prepare::analysis_dir {

namespace {

double rounded_us(double us) { return std::round(us * 1000.0) / 1000.0; }

Json match_json(const VendorMatch& m, bool by_kernel) {
  Json j = Json::object();
  j["ops"] = static_cast<std::int64_t>(m.ops);
  j["kernels"] = static_cast<std::int64_t>(m.kernels);
  j["gpu_time_us"] = rounded_us(m.gpu_time_us);
  if (by_kernel) {
    j["trace_kernels"] = static_cast<std::int64_t>(m.trace_kernels);
    j["trace_gpu_time_us"] = rounded_us(m.trace_gpu_time_us);
  }
  return j;
}

}  // namespace

std::vector<VendorCategoryExport> split_vendor_categories(
    const CsvTable& unified, std::span<const OpGroupKernels> groups,
    std::span<const trace::Uid> trace_gpu_ops, const std::function<GpuOpView(trace::Uid)>& gpu_op,
    const std::vector<VendorSelector>& selectors) {
  std::vector<VendorCategoryExport> out;
  if (selectors.empty()) return out;
  std::unordered_map<std::int64_t, const OpGroupKernels*> by_uid;
  for (const auto& g : groups) by_uid.emplace(g.ex_uid, &g);
  const auto uid_col = unified.find_column("ex_UID");
  const auto name_col = unified.find_column("name");
  // The GPU ops of each row (none when the row has no group).
  auto row_kernels = [&](std::size_t row) -> std::span<const trace::Uid> {
    if (!uid_col) return {};
    const CsvCellView cell = unified.cell(row, *uid_col);
    if (cell.kind != CsvCell::Kind::Number) return {};
    const auto it = by_uid.find(static_cast<std::int64_t>(cell.number));
    return it == by_uid.end() ? std::span<const trace::Uid>{} : it->second->kernels;
  };

  const PandasCsvRoundTrip roundtrip(unified);
  const std::string header = roundtrip.header_line({"enhanced_category", "display_name"});
  for (const auto& sel : selectors) {
    auto it = std::find_if(out.begin(), out.end(),
                           [&](const VendorCategoryExport& c) { return c.name == sel.category; });
    if (it == out.end()) {
      VendorCategoryExport category;
      category.name = sel.category;
      category.plugin = sel.plugin;
      category.plugin_path = sel.plugin_path.string();
      category.tier = sel.tier;
      out.push_back(std::move(category));
      it = std::prev(out.end());
    }
    it->selectors.emplace_back(&sel, VendorMatch{});
  }
  for (auto& category : out) {
    std::vector<bool> in_category(unified.row_count(), false);
    std::set<trace::Uid> kernels;
    for (auto& [sel, match] : category.selectors) {
      for (std::size_t r = 0; r < unified.row_count(); ++r) {
        if (!sel->op.empty()) {
          if (!name_col || !sel->op.matches(unified.cell(r, *name_col).text)) continue;
        }
        std::size_t row_hits = 0;
        for (const trace::Uid uid : row_kernels(r)) {
          const GpuOpView view = gpu_op(uid);
          if (!sel->kernel.empty() && !sel->kernel.matches(view.name)) continue;
          ++row_hits;
          ++match.kernels;
          match.gpu_time_us += view.dur_us;
          if (kernels.insert(uid).second) {
            ++category.total.kernels;
            category.total.gpu_time_us += view.dur_us;
          }
        }
        if (!sel->kernel.empty() && row_hits == 0) continue;
        ++match.ops;
        in_category[r] = true;
      }
    }
    // Trace-wide: every GPU op a kernel pattern of the category matches.
    for (const trace::Uid uid : trace_gpu_ops) {
      const GpuOpView view = gpu_op(uid);
      bool any = false;
      for (auto& [sel, match] : category.selectors) {
        if (sel->kernel.empty() || !sel->kernel.matches(view.name)) continue;
        any = true;
        ++match.trace_kernels;
        match.trace_gpu_time_us += view.dur_us;
      }
      if (any) {
        ++category.total.trace_kernels;
        category.total.trace_gpu_time_us += view.dur_us;
      }
    }
    category.csv_text = header + "\n";
    for (std::size_t r = 0; r < unified.row_count(); ++r) {
      if (!in_category[r]) continue;
      ++category.total.ops;
      category.csv_text += roundtrip.row_line(r, {category.name, category.name});
      category.csv_text += "\n";
    }
  }
  return out;
}

Json vendor_categories_json(const std::vector<VendorCategoryExport>& categories) {
  Json list = Json::array();
  for (const auto& c : categories) {
    Json j = Json::object();
    j["name"] = c.name;
    j["plugin"] = c.plugin;
    j["plugin_path"] = c.plugin_path;
    j["tier"] = c.tier == Tier::Compute ? "compute_kernel" : "system";
    j["csv_file"] = "category_data/" + c.name + "_ops.csv";
    const bool by_kernel = std::any_of(c.selectors.begin(), c.selectors.end(),
                                       [](const auto& s) { return !s.first->kernel.empty(); });
    const Json total = match_json(c.total, by_kernel);
    for (const auto& [key, value] : total.as_object()) j[key] = value;
    Json selectors = Json::array();
    for (const auto& [sel, match] : c.selectors) {
      Json s = Json::object();
      s["index"] = static_cast<std::int64_t>(sel->index);
      s["kernel_pattern"] = sel->kernel.text();
      s["op_pattern"] = sel->op.text();
      const Json counts = match_json(match, !sel->kernel.empty());
      for (const auto& [key, value] : counts.as_object()) s[key] = value;
      selectors.push_back(std::move(s));
    }
    j["selectors"] = std::move(selectors);
    list.push_back(std::move(j));
  }
  Json doc = Json::object();
  doc["categories"] = std::move(list);
  return doc;
}

}  // namespace loupe::core::prepare::analysis_dir
