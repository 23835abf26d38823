#include "perf_lookup.hpp"

namespace loupe::fusion {

namespace {

bool is_regex_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

}  // namespace

std::vector<std::string> kernel_names_in_summary(std::string_view summary) {
  static constexpr std::string_view kKey = "'name':";
  std::vector<std::string> names;
  size_t pos = 0;
  while ((pos = summary.find(kKey, pos)) != std::string_view::npos) {
    size_t p = pos + kKey.size();
    while (p < summary.size() && is_regex_space(summary[p])) ++p;
    if (p < summary.size() && summary[p] == '\'') {
      const size_t end = summary.find('\'', p + 1);
      if (end != std::string_view::npos && end > p + 1) {
        names.emplace_back(summary.substr(p + 1, end - p - 1));
        pos = end + 1;
        continue;
      }
    }
    pos += 1;
  }
  return names;
}

void PerfLookup::add_row(const PerfRow& row) {
  if (!row.kernel_details_summary) return;
  const ShapeKey shape =
      row.input_dims ? compute::first_shape_key(*row.input_dims) : ShapeKey(std::nullopt);
  for (const auto& name : kernel_names_in_summary(*row.kernel_details_summary)) {
    add(name, shape, row.entry);
  }
}

void PerfLookup::add(const std::string& kernel, const ShapeKey& shape, const PerfEntry& entry) {
  auto it = index_.find(kernel);
  if (it == index_.end()) {
    index_.emplace(kernel, kernels_.size());
    kernels_.push_back({kernel, Shapes{{shape, entry}}});
    return;
  }
  Shapes& shapes = kernels_[it->second].second;
  for (const auto& stored : shapes) {
    if (stored.first == shape) return;  // first row wins
  }
  shapes.emplace_back(shape, entry);
}

const PerfEntry* PerfLookup::find(std::string_view kname, const ShapeKey& shape) const {
  const Shapes* shapes = nullptr;
  if (auto it = index_.find(std::string(kname)); it != index_.end()) {
    shapes = &kernels_[it->second].second;
  } else {
    for (const auto& [csv_name, candidate_shapes] : kernels_) {
      const std::string_view stored(csv_name);
      if (kname.substr(0, stored.size()) == stored || stored.substr(0, kname.size()) == kname) {
        shapes = &candidate_shapes;
        break;
      }
    }
  }
  if (shapes == nullptr || shapes->empty()) return nullptr;
  for (const auto& [key, entry] : *shapes) {
    if (key == shape) return &entry;
  }
  return &shapes->front().second;
}

}  // namespace loupe::fusion
