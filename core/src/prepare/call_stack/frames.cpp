// §3.6.4 frame filter and name normalisation.
#include <string>
#include <string_view>

#include "loupe/core/prepare/call_stack.hpp"

namespace loupe::core::prepare {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

bool is_call_stack_frame(std::string_view name, trace::Category category) {
  return category == trace::Category::kCpuOp || name.find("nn.Module") != std::string_view::npos ||
         name.find("::") != std::string_view::npos || name.find('/') != std::string_view::npos;
}

std::string normalize_frame_name(std::string_view name) {
  std::string out;
  out.reserve(name.size());
  std::size_t i = 0;
  while (i < name.size()) {
    if (name[i] == '_' && i + 1 < name.size() && is_digit(name[i + 1])) {
      i += 2;
      while (i < name.size() && is_digit(name[i])) ++i;
      continue;
    }
    out.push_back(name[i]);
    ++i;
  }
  return out;
}

std::optional<std::string> call_stack_frame(const trace::TraceModel& model, trace::Uid uid) {
  const std::string_view name = model.name(uid);
  if (!is_call_stack_frame(name, model.event(uid).category)) return std::nullopt;
  return normalize_frame_name(name);
}

}  // namespace loupe::core::prepare
