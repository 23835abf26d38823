#include "loupe/core/util/safe_name.hpp"

namespace loupe::core {

bool is_safe_name(std::string_view name) {
  if (name.empty() || name.size() > kMaxNameLength) return false;
  auto alnum = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
  };
  if (!alnum(name.front())) return false;
  for (const char c : name) {
    if (!alnum(c) && c != '_' && c != '-') return false;
  }
  return true;
}

}  // namespace loupe::core
