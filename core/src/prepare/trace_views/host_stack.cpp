#include "host_stack.hpp"

#include <string_view>
#include <vector>

namespace loupe::core::prepare {

std::string host_stack(const trace::TraceModel& model, const trace::EventTree& tree,
                       trace::Uid uid) {
  constexpr std::size_t kStackDepth = 8;
  std::vector<std::string_view> names;
  for (trace::Uid a = tree.parent(uid); a != trace::kNoUid && names.size() < kStackDepth;
       a = tree.parent(a)) {
    const trace::Category c = model.event(a).category;
    if (c == trace::Category::kCpuOp || c == trace::Category::kPythonFunction ||
        c == trace::Category::kUserAnnotation) {
      names.push_back(model.name(a));
    }
  }
  std::string out;
  for (auto it = names.rbegin(); it != names.rend(); ++it) {
    if (!out.empty()) out += " > ";
    out += *it;
  }
  return out;
}

}  // namespace loupe::core::prepare
