#include "loupe/core/prepare/trace_arg_cache.hpp"

#include "json_text.hpp"
#include "loupe/core/prepare/py_repr.hpp"

namespace loupe::core::prepare {

std::array<TraceArg*, 4> TraceArgCache::find(trace::Uid uid, std::span<const char* const, 4> keys) {
  std::array<TraceArg*, 4> found{};
  // Keys compared by interned id: the pool stores each text once, so equal ids are equal texts.
  std::array<trace::StringId, 4> ids{};
  for (std::size_t i = 0; i < keys.size(); ++i) ids[i] = key_id(keys[i]);
  for (const trace::ArgPair& pair : model_.args(uid)) {
    for (std::size_t i = 0; i < keys.size(); ++i) {
      if (found[i] == nullptr && ids[i] != trace::kNoString && pair.key == ids[i]) {
        found[i] = &parsed(pair);
      }
    }
  }
  return found;
}

trace::StringId TraceArgCache::key_id(const char* key) {
  const std::string_view wanted(key);
  for (const auto& [text, id] : key_ids_) {
    if (text == wanted) return id;
  }
  // The model does not change while a cache reads it (the preparation's model is const), so an
  // absent key stays absent.
  const trace::StringId id = model_.strings().find(key);
  key_ids_.emplace_back(std::string(wanted), id);
  return id;
}

const std::string* TraceArgCache::python_str(TraceArg& arg, bool lists_as_tuples) {
  if (arg.value.is_null()) return nullptr;
  std::optional<std::string>& str = lists_as_tuples ? arg.str_as_tuples : arg.str_as_lists;
  if (!str) str = py_json_str(arg.value, lists_as_tuples);
  return &*str;
}

TraceArg& TraceArgCache::parsed(const trace::ArgPair& pair) {
  const auto [it, inserted] = by_value_.try_emplace(pair.value);
  if (inserted) it->second.value = parse_json_text(model_.arg_value_text(pair));
  return it->second;
}

}  // namespace loupe::core::prepare
