#include "loupe/core/prepare/coll/collective_rows.hpp"

#include <algorithm>
#include <cctype>
#include <string>
#include <utility>

#include "json_text.hpp"
#include "loupe/core/prepare/coll/key_columns.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"

namespace loupe::core::prepare::coll {

namespace {

namespace lt = loupe::core::trace;

// Bytes per element of the dtype names TraceLens sizes messages for; 0 for any other.
int dtype_bytes(const Json& dtype) {
  if (!dtype.is_string()) return 0;
  static constexpr std::array<std::pair<std::string_view, int>, 9> kSizes = {{{"Float", 4},
                                                                              {"Int", 4},
                                                                              {"Long", 8},
                                                                              {"BFloat16", 2},
                                                                              {"Bool", 1},
                                                                              {"Byte", 1},
                                                                              {"Double", 8},
                                                                              {"Half", 2},
                                                                              {"Short", 2}}};
  const auto it = std::find_if(kSizes.begin(), kSizes.end(),
                               [&](const auto& entry) { return entry.first == dtype.as_string(); });
  return it == kSizes.end() ? 0 : it->second;
}

// nelems * bytes / 1024**2 as Python computes it (exact product, one rounding).
std::optional<double> message_mb(const Json& nelems, int bytes) {
  if (nelems.is_int()) {
    return static_cast<double>(nelems.as_int() * bytes) / 1048576.0;
  }
  if (nelems.is_double()) return nelems.as_double() * bytes / 1048576.0;
  return std::nullopt;
}

bool contains_ignore_case(std::string_view text, std::string_view needle) {
  const auto it =
      std::search(text.begin(), text.end(), needle.begin(), needle.end(), [](char a, char b) {
        return std::tolower(static_cast<unsigned char>(a)) ==
               std::tolower(static_cast<unsigned char>(b));
      });
  return it != text.end();
}

bool is_linked(const lt::TraceModel& model, lt::Uid uid) {
  const auto detail = model.detail(uid);
  return detail && (detail->correlation != lt::kNoValue || detail->external_id != lt::kNoValue);
}

CollectiveRow read_row(const lt::TraceModel& model, lt::Uid uid) {
  CollectiveRow row;
  for (std::size_t f = 0; f < kFieldCount; ++f) {
    if (const auto text = model.arg_text(uid, kFieldNames[f])) {
      row.fields[f] = parse_json_text(*text);
    }
  }
  // A custom all-reduce kernel without a collective name is taken to be an allreduce.
  if (row.fields[kCollectiveName].is_null() &&
      contains_ignore_case(model.name(uid), "cross_device_reduce")) {
    row.fields[kCollectiveName] = Json(std::string("allreduce"));
  }
  const int bytes = dtype_bytes(row.fields[kDtype]);
  if (bytes != 0 && !row.fields[kInNelems].is_null()) {
    row.in_msg_mb = message_mb(row.fields[kInNelems], bytes);
    row.out_msg_mb = message_mb(row.fields[kOutNelems], bytes);
  }
  row.ts = model.ts_us(uid);
  row.ts_is_int = model.ts_is_integer(uid);
  row.dur = model.dur_us(uid);
  row.dur_is_int = model.dur_is_integer(uid);
  return row;
}

}  // namespace

bool lacks_group_metadata(const std::vector<CollectiveRow>& rows) {
  const auto unnamed = [](const CollectiveRow& row) {
    const Json& name = row.fields[kGroupName];
    return is_missing(name) || (name.is_string() && name.as_string() == "Unknown_Group");
  };
  std::vector<const Json*> streams;
  for (const CollectiveRow& row : rows) {
    const Json& stream = row.fields[kStream];
    if (is_missing(stream)) continue;
    const bool seen = std::any_of(streams.begin(), streams.end(), [&](const Json* s) {
      return compare_keys(*s, stream, ColumnDtype::kObject) == 0;
    });
    if (!seen) streams.push_back(&stream);
  }
  return std::all_of(rows.begin(), rows.end(), unnamed) && streams.size() <= 1;
}

void name_groups(std::vector<CollectiveRow>& rows, bool by_stream_order) {
  for (CollectiveRow& row : rows) {
    if (by_stream_order) {
      row.fields[kGroupName] = Json(std::string("all"));
    } else if (is_missing(row.fields[kGroupName])) {
      row.fields[kGroupName] = Json(std::string("Unknown_Group"));
    }
  }
}

std::vector<CollectiveRow> collective_rows(const trace::TraceModel& model) {
  std::vector<CollectiveRow> rows = unnamed_collective_rows(model, 0);
  if (!rows.empty()) name_groups(rows, lacks_group_metadata(rows));
  return rows;
}

std::vector<CollectiveRow> unnamed_collective_rows(const trace::TraceModel& model, int rank) {
  std::vector<CollectiveRow> rows;
  const auto count = static_cast<lt::Uid>(model.event_count());
  for (lt::Uid uid = 0; uid < count; ++uid) {
    const lt::Event& event = model.event(uid);
    if (event.category != lt::Category::kKernel || (event.flags & lt::kHasDur) == 0) continue;
    if (!lt::is_communication_name(model.name(uid)) || !is_linked(model, uid)) continue;
    rows.push_back(read_row(model, uid));
    rows.back().rank = rank;
  }
  return rows;
}

}  // namespace loupe::core::prepare::coll
