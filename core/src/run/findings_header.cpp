#include "findings_header.hpp"

#include <optional>
#include <string_view>

namespace loupe::core {

namespace {

std::optional<std::string_view> string_member(const rapidjson::Value& doc, const char* key) {
  const auto it = doc.FindMember(key);
  if (it == doc.MemberEnd() || !it->value.IsString()) return std::nullopt;
  return std::string_view(it->value.GetString(), it->value.GetStringLength());
}

std::optional<findings::Style> parse_style(std::string_view text) {
  for (const auto style :
       {findings::Style::Compute, findings::Style::System, findings::Style::Fusion}) {
    if (text == findings::to_string(style)) return style;
  }
  return std::nullopt;
}

std::optional<findings::Status> parse_status(std::string_view text) {
  for (const auto status :
       {findings::Status::Ok, findings::Status::NoData, findings::Status::Error}) {
    if (text == findings::to_string(status)) return status;
  }
  return std::nullopt;
}

}  // namespace

findings::Style default_style(Tier tier) {
  return tier == Tier::Compute ? findings::Style::Compute : findings::Style::System;
}

std::string read_findings_header(const rapidjson::Value& doc, const std::string& category,
                                 Tier tier, FindingsHeader& out) {
  if (!doc.IsObject()) return "the findings document is not a JSON object";
  const auto style_text = string_member(doc, "style");
  const auto style = style_text ? parse_style(*style_text) : std::nullopt;
  if (!style) return "the findings document has no valid style (compute, system or fusion)";
  const bool allowed = tier == Tier::Compute ? *style == findings::Style::Compute
                                             : *style != findings::Style::Compute;
  if (!allowed) {
    return std::string("the findings style '") + findings::to_string(*style) + "' does not fit a " +
           (tier == Tier::Compute ? "compute" : "system") + "-tier plugin";
  }
  const auto status_text = string_member(doc, "status");
  const auto status = status_text ? parse_status(*status_text) : std::nullopt;
  if (!status) return "the findings document has no valid status (OK, NO_DATA or ERROR)";
  const auto doc_category = string_member(doc, "category");
  if (!doc_category || *doc_category != category) {
    return "the findings document is for category '" +
           std::string(doc_category.value_or("(none)")) + "', not '" + category + "'";
  }
  const auto title = string_member(doc, "title");
  if (!title || title->find_first_not_of(" \t") == std::string_view::npos) {
    return "the findings document has an empty title";
  }
  if (title->size() > kMaxTitleBytes) {
    return "the findings title is " + std::to_string(title->size()) + " bytes (at most " +
           std::to_string(kMaxTitleBytes) + ")";
  }
  out.style = *style;
  out.status = *status;
  out.category = category;
  out.title = std::string(*title);
  out.message = std::string(string_member(doc, "message").value_or(""));
  return {};
}

}  // namespace loupe::core
