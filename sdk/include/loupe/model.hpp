// Read-only C++ views over the model the host shares with plugins (see abi.h). The views are
// cheap handles (two pointers); they never own data and are valid during one analyze() call.
#pragma once

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "loupe/abi.h"
#include "loupe/json_value.hpp"

namespace loupe {

// One JSON value of a model document. A default-constructed view is "absent": every accessor
// answers as if the value were missing (kind() == Absent, size() == 0, member() absent).
class JsonView {
 public:
  enum class Kind { Absent, Null, False, True, Int, Double, String, Array, Object };

  JsonView() = default;
  JsonView(const loupe_host_services* host, const loupe_json* value) : host_(host), value_(value) {}

  bool present() const { return value_ != nullptr; }
  explicit operator bool() const { return present(); }

  Kind kind() const {
    if (value_ == nullptr) return Kind::Absent;
    switch (host_->json_kind(value_)) {
      case LOUPE_JSON_NULL:
        return Kind::Null;
      case LOUPE_JSON_FALSE:
        return Kind::False;
      case LOUPE_JSON_TRUE:
        return Kind::True;
      case LOUPE_JSON_INT:
        return Kind::Int;
      case LOUPE_JSON_DOUBLE:
        return Kind::Double;
      case LOUPE_JSON_STRING:
        return Kind::String;
      case LOUPE_JSON_ARRAY:
        return Kind::Array;
      default:
        return Kind::Object;
    }
  }
  bool is_null() const { return kind() == Kind::Null; }
  bool is_bool() const { return kind() == Kind::True || kind() == Kind::False; }
  bool is_int() const { return kind() == Kind::Int; }
  bool is_number() const { return kind() == Kind::Int || kind() == Kind::Double; }
  bool is_string() const { return kind() == Kind::String; }
  bool is_array() const { return kind() == Kind::Array; }
  bool is_object() const { return kind() == Kind::Object; }

  bool as_bool(bool fallback = false) const { return is_bool() ? kind() == Kind::True : fallback; }
  std::int64_t as_int(std::int64_t fallback = 0) const {
    return is_int() ? host_->json_int(value_) : fallback;
  }
  double as_double(double fallback = std::nan("")) const {
    return is_number() ? host_->json_double(value_) : fallback;
  }
  std::string_view as_string(std::string_view fallback = {}) const {
    if (!is_string()) return fallback;
    size_t size = 0;
    const char* data = host_->json_string(value_, &size);
    return {data, size};
  }

  size_t size() const { return value_ == nullptr ? 0 : host_->json_size(value_); }
  JsonView at(size_t index) const {
    if (index >= size()) return {};
    return {host_, host_->json_at(value_, index)};
  }
  std::string_view key_at(size_t index) const {
    if (!is_object() || index >= size()) return {};
    size_t len = 0;
    const char* data = host_->json_key_at(value_, index, &len);
    return {data, len};
  }
  JsonView member(std::string_view key) const {
    if (!is_object()) return {};
    return {host_, host_->json_member(value_, key.data(), key.size())};
  }
  JsonView operator[](std::string_view key) const { return member(key); }
  JsonView operator[](size_t index) const { return at(index); }

  // Deep copy into an owned, ordered Json value (absent becomes null).
  Json to_json() const {
    switch (kind()) {
      case Kind::Absent:
      case Kind::Null:
        return Json();
      case Kind::False:
        return Json(false);
      case Kind::True:
        return Json(true);
      case Kind::Int:
        return Json(as_int());
      case Kind::Double:
        return Json(as_double());
      case Kind::String:
        return Json(as_string());
      case Kind::Array: {
        Json out = Json::array();
        for (size_t i = 0; i < size(); ++i) out.push_back(at(i).to_json());
        return out;
      }
      case Kind::Object: {
        Json out = Json::object();
        for (size_t i = 0; i < size(); ++i)
          out.as_object().emplace_back(key_at(i), at(i).to_json());
        return out;
      }
    }
    return Json();
  }

 private:
  const loupe_host_services* host_ = nullptr;
  const loupe_json* value_ = nullptr;
};

// One CSV cell.
struct CellView {
  enum class Kind { Empty, Number, Text };
  Kind kind = Kind::Empty;
  double number = std::nan("");  // set when kind == Number
  std::string_view text;         // the field text (unquoted), always set

  bool empty() const { return kind == Kind::Empty; }
  bool is_number() const { return kind == Kind::Number; }
};

// One CSV table of the model: a header row and data rows, addressed by row index and column.
class TableView {
 public:
  static constexpr size_t npos = static_cast<size_t>(-1);

  TableView() = default;
  TableView(const loupe_host_services* host, const loupe_table* table)
      : host_(host), table_(table) {}

  bool present() const { return table_ != nullptr; }
  explicit operator bool() const { return present(); }
  size_t rows() const { return table_ == nullptr ? 0 : host_->table_row_count(table_); }
  size_t columns() const { return table_ == nullptr ? 0 : host_->table_column_count(table_); }
  std::string_view column_name(size_t column) const {
    if (column >= columns()) return {};
    size_t len = 0;
    const char* data = host_->table_column_name(table_, column, &len);
    return {data, len};
  }
  // Index of the first column with this header, or npos.
  size_t column(std::string_view name) const {
    for (size_t c = 0; c < columns(); ++c) {
      if (column_name(c) == name) return c;
    }
    return npos;
  }
  CellView cell(size_t row, size_t column) const {
    CellView out;
    if (table_ == nullptr || column == npos) return out;
    loupe_cell raw{};
    raw.struct_size = sizeof(raw);
    if (host_->table_cell(table_, row, column, &raw) != LOUPE_OK) return out;
    out.kind = raw.kind == LOUPE_CELL_NUMBER ? CellView::Kind::Number
               : raw.kind == LOUPE_CELL_TEXT ? CellView::Kind::Text
                                             : CellView::Kind::Empty;
    if (out.kind == CellView::Kind::Number) out.number = raw.number;
    out.text = std::string_view(raw.text == nullptr ? "" : raw.text, raw.text_size);
    return out;
  }
  CellView cell(size_t row, std::string_view column_name_) const {
    return cell(row, column(column_name_));
  }

 private:
  const loupe_host_services* host_ = nullptr;
  const loupe_table* table_ = nullptr;
};

// The whole model: documents and tables by name, plus a few properties.
class ModelView {
 public:
  ModelView(const loupe_host_services* host, const loupe_model* model)
      : host_(host), model_(model) {}

  JsonView document(std::string_view name) const {
    const std::string key(name);
    return {host_, host_->model_document(model_, key.c_str())};
  }
  TableView table(std::string_view name) const {
    const std::string key(name);
    return {host_, host_->model_table(model_, key.c_str())};
  }
  size_t document_count() const { return host_->model_document_count(model_); }
  std::string_view document_name(size_t index) const {
    const char* name = host_->model_document_name(model_, index);
    return name == nullptr ? std::string_view{} : std::string_view{name};
  }
  size_t table_count() const { return host_->model_table_count(model_); }
  std::string_view table_name(size_t index) const {
    const char* name = host_->model_table_name(model_, index);
    return name == nullptr ? std::string_view{} : std::string_view{name};
  }
  std::optional<std::string> property(std::string_view key) const {
    const std::string k(key);
    const char* value = host_->model_property(model_, k.c_str());
    if (value == nullptr) return std::nullopt;
    return std::string(value);
  }

 private:
  const loupe_host_services* host_;
  const loupe_model* model_;
};

}  // namespace loupe
