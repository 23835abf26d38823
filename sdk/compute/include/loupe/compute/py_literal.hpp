// A parser for the Python literals TraceLens writes into CSV cells with repr(): tuples, lists,
// dicts, sets, strings, ints, floats, True/False/None. Enough for ast.literal_eval on those cells.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace loupe::compute {

class PyValue {
 public:
  struct None {};
  struct List {
    std::vector<PyValue> items;
    bool is_tuple = false;
  };
  using Dict = std::vector<std::pair<PyValue, PyValue>>;
  // A set display "{a, b}": items in source order, duplicates kept (no hashing).
  struct Set {
    std::vector<PyValue> items;
  };

  PyValue() = default;
  explicit PyValue(bool b) : value_(b) {}
  explicit PyValue(std::int64_t i) : value_(i) {}
  explicit PyValue(double d) : value_(d) {}
  explicit PyValue(std::string s) : value_(std::move(s)) {}
  explicit PyValue(List l) : value_(std::move(l)) {}
  explicit PyValue(Dict d) : value_(std::move(d)) {}
  explicit PyValue(Set s) : value_(std::move(s)) {}

  bool is_none() const { return std::holds_alternative<None>(value_); }
  bool is_bool() const { return std::holds_alternative<bool>(value_); }
  bool is_int() const { return std::holds_alternative<std::int64_t>(value_); }
  bool is_float() const { return std::holds_alternative<double>(value_); }
  bool is_string() const { return std::holds_alternative<std::string>(value_); }
  bool is_sequence() const { return std::holds_alternative<List>(value_); }
  bool is_dict() const { return std::holds_alternative<Dict>(value_); }
  bool is_set() const { return std::holds_alternative<Set>(value_); }

  bool as_bool() const { return std::get<bool>(value_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(value_); }
  double as_float() const { return std::get<double>(value_); }
  const std::string& as_string() const { return std::get<std::string>(value_); }
  const List& as_list() const { return std::get<List>(value_); }
  const std::vector<PyValue>& items() const { return as_list().items; }
  const Dict& as_dict() const { return std::get<Dict>(value_); }
  const Set& as_set() const { return std::get<Set>(value_); }

  // Python truthiness.
  bool truthy() const;
  // A number as double (bool/int/float), nullopt otherwise.
  std::optional<double> number() const;
  // dict lookup by string key; nullptr when absent or not a dict.
  const PyValue* get(std::string_view key) const;
  // Python str(): strings unquoted, everything else like repr().
  std::string str() const;
  // Python repr(); a set keeps its source order ("set()" when empty).
  std::string repr() const;

 private:
  std::variant<None, bool, std::int64_t, double, std::string, List, Dict, Set> value_;
};

// ast.literal_eval for the literal subset above; nullopt on any syntax error.
std::optional<PyValue> parse_py_literal(std::string_view text);

}  // namespace loupe::compute
