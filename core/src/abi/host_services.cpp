// Implementation of loupe_host_services. Every function is noexcept: nothing may unwind into a
// plugin. Handles are the host's own objects behind reinterpret_cast (the ABI boundary).
#include "loupe/core/abi/host_services.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include "../isolation/child_wire.hpp"
#include "document_checks.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/version.hpp"

namespace loupe::core {
namespace {

constexpr std::size_t kMaxLogLine = 64 * 1024;  // longer log lines and error messages are cut

const Model& model_of(const loupe_model* model) { return *reinterpret_cast<const Model*>(model); }
const rapidjson::Value* value_of(const loupe_json* v) {
  return reinterpret_cast<const rapidjson::Value*>(v);
}
const loupe_json* json_handle(const rapidjson::Value* v) {
  return reinterpret_cast<const loupe_json*>(v);
}
const CsvTable* table_of(const loupe_table* t) { return reinterpret_cast<const CsvTable*>(t); }

void svc_log(loupe_run* run, int32_t level, const char* message) noexcept {
  if (run == nullptr || message == nullptr) return;
  try {
    const RunChannel& channel = *RunChannel::from(run);
    const std::string_view text(message, ::strnlen(message, kMaxLogLine));
    if (channel.log_fd() >= 0) {
      std::string payload(1, static_cast<char>('0' + std::clamp(level, 0, 3)));
      payload.append(text);
      isolation::write_record(channel.log_fd(), isolation::WireTag::Log, payload);
    } else {
      log_plugin_line(channel.plugin_name(), level, text);
    }
  } catch (...) {
  }
}

void svc_report_error(loupe_run* run, const char* message) noexcept {
  if (run == nullptr) return;
  try {
    RunChannel::from(run)->output().errors.emplace_back(
        message == nullptr ? "(no message)"
                           : std::string(message, ::strnlen(message, kMaxLogLine)));
  } catch (...) {
  }
}

loupe_status emit(loupe_run* run, const char* json, size_t size, bool metrics) noexcept {
  if (run == nullptr || json == nullptr) return LOUPE_EINVAL;
  try {
    RunChannel& channel = *RunChannel::from(run);
    auto& out = channel.output();
    auto& slot = metrics ? out.metrics_json : out.findings_json;
    if (slot.has_value()) return LOUPE_ESTATE;
    const std::string_view text(json, size);
    const std::string why =
        check_emitted_document(text, metrics ? EmittedDocument::Metrics : EmittedDocument::Findings,
                               channel.compat_tracelens());
    if (!why.empty()) {
      out.errors.push_back("the host rejected " + why);
      return LOUPE_EINVAL;
    }
    slot.emplace(text);
    return LOUPE_OK;
  } catch (...) {
    return LOUPE_ERROR;
  }
}
loupe_status svc_emit_metrics(loupe_run* run, const char* json, size_t size) noexcept {
  return emit(run, json, size, true);
}
loupe_status svc_emit_findings(loupe_run* run, const char* json, size_t size) noexcept {
  return emit(run, json, size, false);
}

const loupe_json* svc_model_document(const loupe_model* model, const char* name) noexcept {
  if (model == nullptr || name == nullptr) return nullptr;
  return json_handle(model_of(model).document(name));
}
size_t svc_model_document_count(const loupe_model* model) noexcept {
  return model == nullptr ? 0 : model_of(model).document_names().size();
}
const char* svc_model_document_name(const loupe_model* model, size_t index) noexcept {
  if (model == nullptr) return nullptr;
  const auto& names = model_of(model).document_names();
  return index < names.size() ? names[index].c_str() : nullptr;
}
const loupe_table* svc_model_table(const loupe_model* model, const char* name) noexcept {
  if (model == nullptr || name == nullptr) return nullptr;
  return reinterpret_cast<const loupe_table*>(model_of(model).table(name));
}
size_t svc_model_table_count(const loupe_model* model) noexcept {
  return model == nullptr ? 0 : model_of(model).table_names().size();
}
const char* svc_model_table_name(const loupe_model* model, size_t index) noexcept {
  if (model == nullptr) return nullptr;
  const auto& names = model_of(model).table_names();
  return index < names.size() ? names[index].c_str() : nullptr;
}
const char* svc_model_property(const loupe_model* model, const char* key) noexcept {
  if (model == nullptr || key == nullptr) return nullptr;
  const std::string* value = model_of(model).property(key);
  return value == nullptr ? nullptr : value->c_str();
}

int32_t svc_json_kind(const loupe_json* handle) noexcept {
  const auto* v = value_of(handle);
  if (v == nullptr || v->IsNull()) return LOUPE_JSON_NULL;
  if (v->IsFalse()) return LOUPE_JSON_FALSE;
  if (v->IsTrue()) return LOUPE_JSON_TRUE;
  if (v->IsInt64()) return LOUPE_JSON_INT;
  if (v->IsNumber()) return LOUPE_JSON_DOUBLE;
  if (v->IsString()) return LOUPE_JSON_STRING;
  if (v->IsArray()) return LOUPE_JSON_ARRAY;
  return LOUPE_JSON_OBJECT;
}
int64_t svc_json_int(const loupe_json* handle) noexcept {
  const auto* v = value_of(handle);
  return v != nullptr && v->IsInt64() ? v->GetInt64() : 0;
}
double svc_json_double(const loupe_json* handle) noexcept {
  const auto* v = value_of(handle);
  if (v == nullptr || !v->IsNumber()) return std::nan("");
  return v->GetDouble();
}
const char* svc_json_string(const loupe_json* handle, size_t* size) noexcept {
  const auto* v = value_of(handle);
  if (v == nullptr || !v->IsString()) {
    if (size != nullptr) *size = 0;
    return nullptr;
  }
  if (size != nullptr) *size = v->GetStringLength();
  return v->GetString();
}
size_t svc_json_size(const loupe_json* handle) noexcept {
  const auto* v = value_of(handle);
  if (v == nullptr) return 0;
  if (v->IsArray()) return v->Size();
  if (v->IsObject()) return v->MemberCount();
  return 0;
}
const loupe_json* svc_json_at(const loupe_json* handle, size_t index) noexcept {
  const auto* v = value_of(handle);
  if (v == nullptr) return nullptr;
  if (v->IsArray()) {
    return index < v->Size() ? json_handle(&(*v)[static_cast<rapidjson::SizeType>(index)])
                             : nullptr;
  }
  if (v->IsObject() && index < v->MemberCount()) {
    return json_handle(&(v->MemberBegin() + static_cast<std::ptrdiff_t>(index))->value);
  }
  return nullptr;
}
const char* svc_json_key_at(const loupe_json* handle, size_t index, size_t* size) noexcept {
  const auto* v = value_of(handle);
  if (v == nullptr || !v->IsObject() || index >= v->MemberCount()) {
    if (size != nullptr) *size = 0;
    return nullptr;
  }
  const auto& name = (v->MemberBegin() + static_cast<std::ptrdiff_t>(index))->name;
  if (size != nullptr) *size = name.GetStringLength();
  return name.GetString();
}
const loupe_json* svc_json_member(const loupe_json* handle, const char* key,
                                  size_t key_size) noexcept {
  const auto* v = value_of(handle);
  if (v == nullptr || key == nullptr || !v->IsObject()) return nullptr;
  const rapidjson::Value* found = nullptr;  // the last duplicate wins, like Python's json
  for (auto it = v->MemberBegin(); it != v->MemberEnd(); ++it) {
    if (it->name.GetStringLength() == key_size &&
        std::memcmp(it->name.GetString(), key, key_size) == 0) {
      found = &it->value;
    }
  }
  return json_handle(found);
}

size_t svc_table_row_count(const loupe_table* t) noexcept {
  return t == nullptr ? 0 : table_of(t)->row_count();
}
size_t svc_table_column_count(const loupe_table* t) noexcept {
  return t == nullptr ? 0 : table_of(t)->column_count();
}
const char* svc_table_column_name(const loupe_table* t, size_t column, size_t* size) noexcept {
  if (t == nullptr || column >= table_of(t)->column_count()) {
    if (size != nullptr) *size = 0;
    return nullptr;
  }
  const auto& name = table_of(t)->column_name(column);
  if (size != nullptr) *size = name.size();
  return name.c_str();
}
loupe_status svc_table_cell(const loupe_table* t, size_t row, size_t column,
                            loupe_cell* out) noexcept {
  if (t == nullptr || out == nullptr) return LOUPE_EINVAL;
  const auto* table = table_of(t);
  if (row >= table->row_count() || column >= table->column_count()) return LOUPE_EINVAL;
  const auto& cell = table->cell(row, column);
  // Fill only the fields the caller's struct has room for.
  if (LOUPE_HAS_FIELD(out, loupe_cell, kind)) {
    out->kind = cell.kind == CsvCell::Kind::Number ? LOUPE_CELL_NUMBER
                : cell.kind == CsvCell::Kind::Text ? LOUPE_CELL_TEXT
                                                   : LOUPE_CELL_EMPTY;
  }
  if (LOUPE_HAS_FIELD(out, loupe_cell, number)) out->number = cell.number;
  if (LOUPE_HAS_FIELD(out, loupe_cell, text)) out->text = cell.text.data();  // NUL-terminated
  if (LOUPE_HAS_FIELD(out, loupe_cell, text_size)) out->text_size = cell.text.size();
  return LOUPE_OK;
}

loupe_host_services make_services() {
  loupe_host_services s{};
  s.struct_size = sizeof(loupe_host_services);
  s.abi_major = LOUPE_ABI_MAJOR;
  s.abi_minor = LOUPE_ABI_MINOR;
  s.log = &svc_log;
  s.report_error = &svc_report_error;
  s.emit_metrics = &svc_emit_metrics;
  s.emit_findings = &svc_emit_findings;
  s.model_document = &svc_model_document;
  s.model_document_count = &svc_model_document_count;
  s.model_document_name = &svc_model_document_name;
  s.model_table = &svc_model_table;
  s.model_table_count = &svc_model_table_count;
  s.model_table_name = &svc_model_table_name;
  s.model_property = &svc_model_property;
  s.json_kind = &svc_json_kind;
  s.json_int = &svc_json_int;
  s.json_double = &svc_json_double;
  s.json_string = &svc_json_string;
  s.json_size = &svc_json_size;
  s.json_at = &svc_json_at;
  s.json_key_at = &svc_json_key_at;
  s.json_member = &svc_json_member;
  s.table_row_count = &svc_table_row_count;
  s.table_column_count = &svc_table_column_count;
  s.table_column_name = &svc_table_column_name;
  s.table_cell = &svc_table_cell;
  return s;
}

}  // namespace

const loupe_host_services& host_services() {
  static const loupe_host_services services = make_services();
  return services;
}

void log_plugin_line(const std::string& plugin_name, int32_t level, std::string_view message) {
  const std::string text = escape_for_terminal(message);
  switch (level) {
    case LOUPE_LOG_DEBUG:
      spdlog::debug("[{}] {}", plugin_name, text);
      break;
    case LOUPE_LOG_INFO:
      spdlog::info("[{}] {}", plugin_name, text);
      break;
    case LOUPE_LOG_WARN:
      spdlog::warn("[{}] {}", plugin_name, text);
      break;
    default:
      spdlog::error("[{}] {}", plugin_name, text);
      break;
  }
}

const loupe_host_info& host_info() {
  static const loupe_host_info info = [] {
    loupe_host_info i{};
    i.struct_size = sizeof(loupe_host_info);
    i.abi_major = LOUPE_ABI_MAJOR;
    i.abi_minor = LOUPE_ABI_MINOR;
    i.host_version = kLoupeVersion;
    return i;
  }();
  return info;
}

}  // namespace loupe::core
