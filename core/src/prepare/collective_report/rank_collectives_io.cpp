// The wire form of RankCollectives (collective_report.hpp): {"rank", "device_count",
// "own_rank", "own_world_size", "rows"},
// each row [fields..., in_mb, out_mb, ts, dur, ts_is_int, dur_is_int]. Doubles are written by
// shortest round-trip repr and read back at full precision, so the report built from parsed
// tables equals the one built in process.
#include "json_text.hpp"
#include "loupe/core/prepare/collective_report.hpp"

namespace loupe::core::multirank {

namespace pc = loupe::core::prepare::coll;

namespace {

constexpr std::size_t kRowWidth = pc::kFieldCount + 6;

Json optional_number(const std::optional<double>& value) {
  return value ? Json(*value) : Json(nullptr);
}

std::optional<double> read_optional(const Json& value) {
  if (value.is_null()) return std::nullopt;
  return value.as_double();
}

}  // namespace

std::string serialize_rank_collectives(const RankCollectives& rank) {
  Json doc = Json::object();
  doc["rank"] = Json(rank.rank);
  doc["device_count"] = rank.device_count ? Json(*rank.device_count) : Json(nullptr);
  doc["own_rank"] = rank.own_rank ? Json(*rank.own_rank) : Json(nullptr);
  doc["own_world_size"] = rank.own_world_size ? Json(*rank.own_world_size) : Json(nullptr);
  Json rows = Json::array();
  for (const pc::CollectiveRow& row : rank.rows) {
    Json cells = Json::array();
    for (const Json& field : row.fields) cells.as_array().push_back(field);
    cells.as_array().push_back(optional_number(row.in_msg_mb));
    cells.as_array().push_back(optional_number(row.out_msg_mb));
    cells.as_array().push_back(Json(row.ts));
    cells.as_array().push_back(Json(row.dur));
    cells.as_array().push_back(Json(row.ts_is_int));
    cells.as_array().push_back(Json(row.dur_is_int));
    rows.as_array().push_back(std::move(cells));
  }
  doc["rows"] = std::move(rows);
  return dump_python_json(doc, -1);
}

std::optional<RankCollectives> parse_rank_collectives(std::string_view text) {
  const auto doc = prepare::try_parse_json_text(text);
  if (!doc || !doc->is_object()) return std::nullopt;
  const Json* rank = doc->find("rank");
  const Json* devices = doc->find("device_count");
  const Json* rows = doc->find("rows");
  if (rank == nullptr || !rank->is_int() || devices == nullptr || rows == nullptr ||
      !rows->is_array()) {
    return std::nullopt;
  }
  RankCollectives result;
  result.rank = static_cast<int>(rank->as_int());
  if (devices->is_int()) result.device_count = static_cast<int>(devices->as_int());
  for (const auto& [key, target] : {std::pair{"own_rank", &result.own_rank},
                                    std::pair{"own_world_size", &result.own_world_size}}) {
    const Json* value = doc->find(key);
    if (value != nullptr && value->is_int()) *target = static_cast<int>(value->as_int());
  }
  for (const Json& cells : rows->as_array()) {
    if (!cells.is_array() || cells.as_array().size() != kRowWidth) return std::nullopt;
    const auto& c = cells.as_array();
    for (std::size_t i = pc::kFieldCount; i < pc::kFieldCount + 4; ++i) {
      if (!c[i].is_null() && !c[i].is_number()) return std::nullopt;
    }
    if (!c[pc::kFieldCount + 2].is_number() || !c[pc::kFieldCount + 3].is_number() ||
        !c[pc::kFieldCount + 4].is_bool() || !c[pc::kFieldCount + 5].is_bool()) {
      return std::nullopt;
    }
    pc::CollectiveRow row;
    for (std::size_t f = 0; f < pc::kFieldCount; ++f) row.fields[f] = c[f];
    row.in_msg_mb = read_optional(c[pc::kFieldCount]);
    row.out_msg_mb = read_optional(c[pc::kFieldCount + 1]);
    row.ts = c[pc::kFieldCount + 2].as_double();
    row.dur = c[pc::kFieldCount + 3].as_double();
    row.ts_is_int = c[pc::kFieldCount + 4].as_bool();
    row.dur_is_int = c[pc::kFieldCount + 5].as_bool();
    row.rank = result.rank;
    result.rows.push_back(std::move(row));
  }
  return result;
}

}  // namespace loupe::core::multirank
