// Structured findings: what a plugin emits instead of markdown. The host renders this document
// with the common renderer and checks the result with the common validator.
// The JSON layout is documented in docs/findings-schema.md ("loupe.findings/1").
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/json_value.hpp"

namespace loupe::findings {

inline constexpr const char* kSchema = "loupe.findings/1";

enum class Status { Ok, NoData, Error };
// Which findings grammar the file follows (and the validator tier it is checked with).
enum class Style { Compute, System, Fusion };

inline const char* to_string(Status s) {
  switch (s) {
    case Status::Ok:
      return "OK";
    case Status::NoData:
      return "NO_DATA";
    case Status::Error:
      return "ERROR";
  }
  return "ERROR";
}
inline const char* to_string(Style s) {
  switch (s) {
    case Style::Compute:
      return "compute";
    case Style::System:
      return "system";
    case Style::Fusion:
      return "fusion";
  }
  return "system";
}

// ---- Text that must render as one inline line ---------------------------------------------
// The renderer refuses free text that could create markdown structure (docs/findings-schema.md,
// "Text rules"): line breaks in one-line fields, "## Recommendations" / "## Detailed Analysis",
// HTML comment markers, and lines starting with '#'. inline_text() turns any message into text
// that passes those rules (line breaks become spaces, the markers are dropped, leading '#' are
// removed). Use it for text that comes from elsewhere (error messages, names from a trace).
inline std::string inline_text(std::string_view text) {
  std::string out(text);
  for (auto& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  for (const std::string_view bad :
       {std::string_view("<!--"), std::string_view("-->"), std::string_view("## Recommendations"),
        std::string_view("## Detailed Analysis")}) {
    for (size_t pos = out.find(bad); pos != std::string::npos; pos = out.find(bad, pos)) {
      // Keep the words of a section name, drop what makes it a heading or a comment marker.
      const bool heading = bad.front() == '#';
      out.erase(pos, heading ? 3 : bad.size());
    }
  }
  const size_t first = out.find_first_not_of("# ");
  if (!out.empty() && out.front() == '#')
    out.erase(0, first == std::string::npos ? out.size() : first);
  return out;
}

// ---- Blocks: the content of free-form sections and of Data parts ---------------------------
struct Table {
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;
};

// A paragraph of inline markdown (bold, code spans, links). One paragraph, no headings.
inline Json paragraph(std::string text) {
  Json b = Json::object();
  b["type"] = "paragraph";
  b["text"] = std::move(text);
  return b;
}
// A quoted note ("> ...").
inline Json quote(std::string text) {
  Json b = Json::object();
  b["type"] = "quote";
  b["text"] = std::move(text);
  return b;
}
// A level-3 subheading inside a section ("### text").
inline Json subheading(std::string text) {
  Json b = Json::object();
  b["type"] = "heading";
  b["text"] = std::move(text);
  return b;
}
inline Json bullets(std::vector<std::string> items) {
  Json b = Json::object();
  b["type"] = "bullets";
  Json list = Json::array();
  for (auto& item : items) list.push_back(std::move(item));
  b["items"] = std::move(list);
  return b;
}
// A numbered list; each item may carry nested bullets.
struct NumberedItem {
  std::string text;
  std::vector<std::string> bullets;
};
inline Json numbered(std::vector<NumberedItem> items) {
  Json b = Json::object();
  b["type"] = "numbered";
  Json list = Json::array();
  for (auto& item : items) {
    Json entry = Json::object();
    entry["text"] = std::move(item.text);
    Json sub = Json::array();
    for (auto& s : item.bullets) sub.push_back(std::move(s));
    entry["bullets"] = std::move(sub);
    list.push_back(std::move(entry));
  }
  b["items"] = std::move(list);
  return b;
}
inline Json table(Table t) {
  Json b = Json::object();
  b["type"] = "table";
  Json cols = Json::array();
  for (auto& c : t.columns) cols.push_back(std::move(c));
  Json rows = Json::array();
  for (auto& r : t.rows) {
    Json row = Json::array();
    for (auto& cell : r) row.push_back(std::move(cell));
    rows.push_back(std::move(row));
  }
  b["columns"] = std::move(cols);
  b["rows"] = std::move(rows);
  return b;
}

struct Section {
  std::string heading;       // rendered "## heading"
  std::vector<Json> blocks;  // paragraph / quote / heading / bullets / numbered / table
};

// ---- Cards and detailed blocks -----------------------------------------------------------
// Impact scores copied from the metrics document (keep the Json numbers so that int/float
// spelling is transcribed exactly). Absent scores mean "not quantifiable from trace data".
struct ImpactScores {
  Json low;
  Json mid;
  Json high;
  std::string text;  // the **Impact** line text, e.g. "impact_score: 4.87"
};

struct Confidence {
  std::string level;  // High | Medium | Low
  std::string reason;
};

struct Recommendation {
  std::string title;                   // without "P<N>:"; fusion titles carry "(x ms, n instances)"
  std::optional<std::string> library;  // compute tier: rendered " (<Library>)"
  std::string insight;
  std::string action;
  std::optional<ImpactScores> impact;  // nullopt: null markers, "Not quantifiable from trace data"
  std::optional<std::string> warning;  // rendered after the impact block as a quoted warning
  std::optional<Confidence> confidence;  // fusion: decides the heading icon
};

struct DetailEstimate {
  Json low;
  Json high;
  std::vector<std::string> bullets;  // rendered inside the detail_estimate marker pair
};

struct Detail {
  int rank = 0;
  std::string title;
  std::string identification;
  std::vector<Json> data;                  // blocks under **Data:** (compute: one 10-col table)
  std::optional<std::string> reasoning;    // **Reasoning for Slowdown:**
  std::optional<std::string> resolution;   // **Resolution:**
  std::optional<DetailEstimate> estimate;  // nullopt: "not quantifiable from trace data"
};

struct Document {
  Style style = Style::System;
  std::string category;
  std::string scope = "standalone";
  Status status = Status::Ok;
  std::string message;  // NO_DATA / ERROR explanation
  std::string title;
  std::vector<Section> sections;
  std::vector<Recommendation> recommendations;
  std::vector<Detail> details;
  std::vector<Section> trailing_sections;
};

namespace detail {
inline Json blocks_json(const std::vector<Json>& blocks) {
  Json out = Json::array();
  for (const auto& b : blocks) out.push_back(b);
  return out;
}
inline Json sections_json(const std::vector<Section>& sections) {
  Json out = Json::array();
  for (const auto& s : sections) {
    Json sj = Json::object();
    sj["heading"] = s.heading;
    sj["blocks"] = blocks_json(s.blocks);
    out.push_back(std::move(sj));
  }
  return out;
}
}  // namespace detail

inline Json to_json(const Document& doc) {
  Json j = Json::object();
  j["schema"] = kSchema;
  j["style"] = to_string(doc.style);
  j["category"] = doc.category;
  j["scope"] = doc.scope;
  j["status"] = to_string(doc.status);
  if (!doc.message.empty()) j["message"] = doc.message;
  j["title"] = doc.title;
  j["sections"] = detail::sections_json(doc.sections);
  Json recs = Json::array();
  for (const auto& r : doc.recommendations) {
    Json rj = Json::object();
    rj["title"] = r.title;
    if (r.library) rj["library"] = *r.library;
    rj["insight"] = r.insight;
    rj["action"] = r.action;
    if (r.impact) {
      Json ij = Json::object();
      ij["low"] = r.impact->low;
      ij["mid"] = r.impact->mid;
      ij["high"] = r.impact->high;
      ij["text"] = r.impact->text;
      rj["impact"] = std::move(ij);
    } else {
      rj["impact"] = nullptr;
    }
    if (r.warning) rj["warning"] = *r.warning;
    if (r.confidence) {
      Json cj = Json::object();
      cj["level"] = r.confidence->level;
      cj["reason"] = r.confidence->reason;
      rj["confidence"] = std::move(cj);
    }
    recs.push_back(std::move(rj));
  }
  j["recommendations"] = std::move(recs);
  Json details = Json::array();
  for (const auto& d : doc.details) {
    Json dj = Json::object();
    dj["rank"] = d.rank;
    dj["title"] = d.title;
    dj["identification"] = d.identification;
    dj["data"] = detail::blocks_json(d.data);
    if (d.reasoning) dj["reasoning"] = *d.reasoning;
    if (d.resolution) dj["resolution"] = *d.resolution;
    if (d.estimate) {
      Json ej = Json::object();
      ej["low"] = d.estimate->low;
      ej["high"] = d.estimate->high;
      Json bl = Json::array();
      for (const auto& b : d.estimate->bullets) bl.push_back(b);
      ej["bullets"] = std::move(bl);
      dj["impact_estimate"] = std::move(ej);
    } else {
      dj["impact_estimate"] = nullptr;
    }
    details.push_back(std::move(dj));
  }
  j["details"] = std::move(details);
  j["trailing_sections"] = detail::sections_json(doc.trailing_sections);
  return j;
}

}  // namespace loupe::findings
