// What the host requires of a findings document's header beyond its schema: checked on the typed
// document against what the plugin was asked to do (docs/findings-schema.md, "Header").
#pragma once

#include <string>

#include "loupe/findings.hpp"
#include "loupe/plugin.hpp"

namespace loupe::core {

inline constexpr std::size_t kMaxTitleBytes = 256;

// Returns "" or the problem: a style the plugin's tier does not allow (compute tier: compute;
// system tier: system or fusion), a category other than `category`, an empty or over-long title.
std::string findings_header_problem(const findings::Document& doc, const std::string& category,
                                    Tier tier);

// The findings style a tier writes when the plugin's own document cannot be used.
findings::Style default_style(Tier tier);

}  // namespace loupe::core
