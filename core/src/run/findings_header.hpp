// The part of a findings document the host itself relies on, read once into typed fields and
// checked against what the plugin was asked to do (docs/findings-schema.md, "Header").
#pragma once

#include <string>

#include <rapidjson/document.h>

#include "loupe/findings.hpp"
#include "loupe/plugin.hpp"

namespace loupe::core {

inline constexpr std::size_t kMaxTitleBytes = 256;

struct FindingsHeader {
  findings::Style style = findings::Style::System;
  findings::Status status = findings::Status::Ok;
  std::string category;
  std::string title;
  std::string message;  // NO_DATA / ERROR explanation, may be empty
};

// Reads the header of a parsed findings document. Returns "" or the problem: not an object,
// unknown style or status, a style the plugin's tier does not allow (compute tier: compute;
// system tier: system or fusion), a category other than `category`, an empty, multi-line or
// over-long title.
std::string read_findings_header(const rapidjson::Value& doc, const std::string& category,
                                 Tier tier, FindingsHeader& out);

// The findings style a tier writes when the plugin's own document cannot be used.
findings::Style default_style(Tier tier);

}  // namespace loupe::core
