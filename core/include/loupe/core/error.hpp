// Errors as values: what a core operation returns when it cannot do its job. Only the CLI prints
// them and chooses exit codes (docs/architecture.md).
#pragma once

#include <string>
#include <type_traits>
#include <utility>
#include <variant>

namespace loupe::core {

enum class ErrorKind {
  Input,   // an input file is unreadable, not a trace, or cannot be analyzed
  Plan,    // the request cannot be planned (unknown category, wrong manifest shape)
  Output,  // the output directory cannot be prepared or written
};

struct Error {
  ErrorKind kind = ErrorKind::Input;
  std::string message;  // one line, names the file and the problem
};

// A value or the Error that prevented it (the shape of C++23's std::expected, kept small).
template <class T>
class [[nodiscard]] Expected {
  static_assert(!std::is_same_v<T, Error>);

 public:
  Expected(T value) : value_(std::in_place_index<0>, std::move(value)) {}      // NOLINT: implicit
  Expected(Error error) : value_(std::in_place_index<1>, std::move(error)) {}  // NOLINT: implicit

  bool has_value() const { return value_.index() == 0; }
  explicit operator bool() const { return has_value(); }
  T& value() & { return std::get<0>(value_); }
  const T& value() const& { return std::get<0>(value_); }
  T&& value() && { return std::get<0>(std::move(value_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const { return std::get<1>(value_); }

 private:
  std::variant<T, Error> value_;
};

}  // namespace loupe::core
