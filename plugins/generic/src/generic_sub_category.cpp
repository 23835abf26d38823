#include "generic_sub_category.hpp"

#include <array>
#include <string>

#include "loupe/text.hpp"

namespace loupe::generic {

namespace {

bool contains_any(const std::string& text, const auto& needles) {
  for (const std::string_view n : needles) {
    if (text.find(n) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

SubCategory classify_sub_category(std::string_view op_name) {
  static constexpr std::array<std::string_view, 6> kCommunication{
      "all_reduce", "collective", "ncclkernel", "rccl", "broadcast", "allgather"};
  static constexpr std::array<std::string_view, 3> kGraph{"graph", "hipgraph", "cudagraph"};
  const std::string lower = text::ascii_lower(op_name);
  if (contains_any(lower, kCommunication)) return SubCategory::Communication;
  if (contains_any(lower, kGraph)) return SubCategory::Graph;
  return SubCategory::Miscellaneous;
}

const char* sub_category_name(SubCategory sub) {
  switch (sub) {
    case SubCategory::Communication:
      return "communication";
    case SubCategory::Graph:
      return "graph";
    case SubCategory::Miscellaneous:
      break;
  }
  return "miscellaneous";
}

}  // namespace loupe::generic
