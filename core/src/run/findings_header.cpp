#include "findings_header.hpp"

#include <string_view>

namespace loupe::core {

findings::Style default_style(Tier tier) {
  return tier == Tier::Compute ? findings::Style::Compute : findings::Style::System;
}

std::string findings_header_problem(const findings::Document& doc, const std::string& category,
                                    Tier tier) {
  const bool allowed = tier == Tier::Compute ? doc.style == findings::Style::Compute
                                             : doc.style != findings::Style::Compute;
  if (!allowed) {
    return std::string("the findings style '") + findings::to_string(doc.style) +
           "' does not fit a " + (tier == Tier::Compute ? "compute" : "system") + "-tier plugin";
  }
  if (doc.category != category) {
    return "the findings document is for category '" + doc.category + "', not '" + category + "'";
  }
  if (doc.title.find_first_not_of(" \t") == std::string::npos) {
    return "the findings document has an empty title";
  }
  if (doc.title.size() > kMaxTitleBytes) {
    return "the findings title is " + std::to_string(doc.title.size()) + " bytes (at most " +
           std::to_string(kMaxTitleBytes) + ")";
  }
  return {};
}

}  // namespace loupe::core
