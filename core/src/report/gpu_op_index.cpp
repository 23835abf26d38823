#include "gpu_op_index.hpp"

#include <charconv>
#include <optional>
#include <string_view>

#include "loupe/core/model/csv_table.hpp"

namespace loupe::core::report {

namespace {

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

GpuOpIndex GpuOpIndex::from_model(const Model& model) {
  GpuOpIndex index;
  if (const CsvTable* events = model.table("trace/gpu_events.csv")) {
    const auto uid = events->find_column("uid");
    const auto dur = events->find_column("dur_ns");
    const auto name = events->find_column("name");
    const auto op_name = events->find_column("op_name");
    if (uid && dur && name && op_name) {
      // Sized once (docs/performance.md, "Big traces"): rehashing cost more than the
      // inserts on the big traces.
      index.dur_ns_.reserve(events->row_count());
      index.ops_.reserve(events->row_count());
      for (size_t r = 0; r < events->row_count(); ++r) {
        const auto u = integer(events->cell(r, *uid).text);
        const auto d = integer(events->cell(r, *dur).text);
        if (!u || !d) continue;
        index.dur_ns_[*u] = *d;
        index.ops_[*u] = {*d, events->cell(r, *name).text, events->cell(r, *op_name).text};
      }
    }
  }
  if (const CsvTable* groups = model.table("trace/op_groups.csv")) {
    const auto ex = groups->find_column("ex_UID");
    const auto uids = groups->find_column("kernel_uids");
    if (ex && uids) {
      for (size_t r = 0; r < groups->row_count(); ++r) {
        const auto e = integer(groups->cell(r, *ex).text);
        if (!e) continue;
        std::vector<std::int64_t>& out = index.groups_[*e];
        const std::string_view text = groups->cell(r, *uids).text;
        size_t pos = 0;
        while (pos < text.size()) {
          size_t end = text.find(' ', pos);
          if (end == std::string_view::npos) end = text.size();
          if (const auto k = integer(text.substr(pos, end - pos))) out.push_back(*k);
          pos = end + 1;
        }
      }
    }
  }
  return index;
}

const GpuOpFacts* GpuOpIndex::find(std::int64_t uid) const {
  const auto it = ops_.find(uid);
  return it == ops_.end() ? nullptr : &it->second;
}

std::span<const std::int64_t> GpuOpIndex::group(std::int64_t ex_uid) const {
  const auto it = groups_.find(ex_uid);
  if (it == groups_.end()) return {};
  return it->second;
}

}  // namespace loupe::core::report
