#pragma once
// The two ways a validation ends: an I/O failure (the file could not be read; nothing was
// checked), or the list of rule violations found (passed when empty).
#include <string>
#include <utility>
#include <vector>

#include "loupe/core/validate/validator.hpp"

namespace loupe::core::validate_detail {

inline ValidationResult io_failure(std::string message) {
  ValidationResult result;
  result.io_error = true;
  result.errors.push_back(std::move(message));
  return result;
}

inline ValidationResult finish(std::vector<std::string> errors) {
  ValidationResult result;
  result.passed = errors.empty();
  result.errors = std::move(errors);
  return result;
}

}  // namespace loupe::core::validate_detail
