// Structured findings: what a plugin emits instead of markdown. The host renders this document
// with the common renderer and checks the result with the common validator.
// The JSON layout is documented in docs/findings-schema.md ("loupe.findings/1").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/json_value.hpp"
#include "loupe/vocabulary.hpp"

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

// How a card's saving was obtained (docs/findings-schema.md, "Evidence"): measured time the change
// removes (idle a sync holds, a straggler's wait), a model's projection of measured time (roofline
// gap, fused-kernel estimate), or a rule of thumb (a share of an op's time with no model).
enum class Evidence { Measured, Modeled, Heuristic };

inline const char* to_string(Evidence e) {
  switch (e) {
    case Evidence::Measured:
      return "measured";
    case Evidence::Modeled:
      return "modeled";
    case Evidence::Heuristic:
      return "heuristic";
  }
  return "heuristic";
}
inline std::optional<Evidence> evidence_from_string(std::string_view text) {
  if (text == "measured") return Evidence::Measured;
  if (text == "modeled") return Evidence::Modeled;
  if (text == "heuristic") return Evidence::Heuristic;
  return std::nullopt;
}

// ---- Text rules (docs/findings-schema.md, "Text rules") --------------------------------------
// Free text may not create markdown structure the renderer owns. The renderer checks every
// text with text_problem(); inline_text() and table_cell() turn any text (an error message, a
// name from a trace) into text that passes, so a plugin never needs its own variant.
enum class TextKind {
  Block,  // a paragraph or quote: may hold line breaks
  Line,   // a title, insight, action, message: one line
  Cell,   // a table cell: one line, no '|'
};

// Why the text breaks the rules for its kind, or nullopt when it is fine.
inline std::optional<std::string> text_problem(std::string_view text, TextKind kind) {
  const bool one_line = kind != TextKind::Block;
  if (one_line && text.find_first_of("\r\n") != std::string_view::npos) {
    return std::string("must be a single line");
  }
  if (kind == TextKind::Cell && text.find('|') != std::string_view::npos) {
    return std::string("table cells must not contain '|'");
  }
  for (const std::string_view forbidden :
       {std::string_view("## Recommendations"), std::string_view("## Detailed Analysis"),
        std::string_view("<!--"), std::string_view("-->")}) {
    if (text.find(forbidden) != std::string_view::npos) {
      return "must not contain '" + std::string(forbidden) + "'";
    }
  }
  // No line may start a heading: headings are structure the renderer owns.
  for (size_t start = 0; start <= text.size();) {
    if (start < text.size() && text[start] == '#')
      return std::string("a line must not start with '#'");
    const size_t end = text.find('\n', start);
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return std::nullopt;
}

// Any text as one line that passes text_problem(.., TextKind::Line): line breaks become spaces,
// the section names lose their "## ", comment markers are dropped, leading '#' are removed.
inline std::string inline_text(std::string_view text) {
  std::string out(text);
  for (auto& c : out) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  // Every pass shrinks the text, and an erase can join the halves of a marker ("<!<!----"), so
  // repeat until a pass changes nothing.
  for (bool changed = true; changed;) {
    changed = false;
    for (const std::string_view bad :
         {std::string_view("<!--"), std::string_view("-->"), std::string_view("## Recommendations"),
          std::string_view("## Detailed Analysis")}) {
      for (size_t pos = out.find(bad); pos != std::string::npos; pos = out.find(bad, pos)) {
        // Keep the words of a section name, drop what makes it a heading or a comment marker.
        out.erase(pos, bad.front() == '#' ? 3 : bad.size());
        changed = true;
      }
    }
    if (!out.empty() && out.front() == '#') {
      const size_t first = out.find_first_not_of("# ");
      out.erase(0, first == std::string::npos ? out.size() : first);
      changed = true;
    }
  }
  return out;
}

// Any text as a table cell: inline_text() with '|' shown as '/', cut to max_chars characters
// (UTF-8 code points; 0 = no limit) with "..." when it was longer.
inline std::string table_cell(std::string_view text, size_t max_chars = 0) {
  std::string out = inline_text(text);
  for (auto& c : out) {
    if (c == '|') c = '/';
  }
  if (max_chars == 0) return out;
  size_t chars = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if ((static_cast<unsigned char>(out[i]) & 0xC0U) == 0x80U) continue;  // continuation byte
    if (chars == max_chars) {
      out.resize(i);
      return out + "...";
    }
    ++chars;
  }
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

// The card's saving in milliseconds of the run's time, as the plugin computed it (not through a
// percentage): low <= mid <= high, finite, non-negative.
struct SavingMs {
  double low = 0.0;
  double mid = 0.0;
  double high = 0.0;
};

// What the card's saving is made of, for the run's time ledger (docs/findings-schema.md,
// "Claims"): GPU ops by their `trace/gpu_events.csv` uid, and op groups by the `ex_UID` of their
// `category_data/<cat>_ops.csv` row (every GPU op of that row's group, `trace/op_groups.csv`).
struct Claims {
  std::vector<std::int64_t> kernels;
  std::vector<std::int64_t> op_groups;
  bool empty() const { return kernels.empty() && op_groups.empty(); }
};

struct Recommendation {
  std::string title;                   // without "P<N>:"; fusion titles carry "(x ms, n instances)"
  std::optional<std::string> library;  // compute tier: rendered " (<Library>)"
  std::string insight;
  std::string action;
  std::optional<ImpactScores> impact;  // nullopt: null markers, "Not quantifiable from trace data"
  std::optional<std::string> warning;  // rendered after the impact block as a quoted warning
  std::optional<Confidence> confidence;  // fusion: decides the heading icon
  // Not rendered; read by the host to rank the run's findings (findings.json).
  std::optional<Evidence> evidence;
  std::optional<SavingMs> saving_ms;
  Claims claims;
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
  Scope scope = Scope::Standalone;
  Status status = Status::Ok;
  std::string message;  // NO_DATA / ERROR explanation
  std::string title;
  std::vector<Section> sections;
  std::vector<Recommendation> recommendations;
  std::vector<Detail> details;
  std::vector<Section> trailing_sections;
};

// A findings document of this style for one category and scope, status OK, with its title.
inline Document new_findings(Style style, std::string category, Scope scope, std::string title) {
  Document doc;
  doc.style = style;
  doc.category = std::move(category);
  doc.scope = scope;
  doc.title = std::move(title);
  return doc;
}

// The ERROR document: the message made safe to render (inline_text), nothing else claimed.
inline Document error_document(Style style, std::string category, Scope scope, std::string title,
                               std::string_view message) {
  Document doc = new_findings(style, std::move(category), scope, std::move(title));
  doc.status = Status::Error;
  doc.message = inline_text(message);
  return doc;
}

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
  j["scope"] = to_string(doc.scope);
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
    if (r.evidence) rj["evidence"] = to_string(*r.evidence);
    if (r.saving_ms) {
      Json sj = Json::object();
      sj["low"] = r.saving_ms->low;
      sj["mid"] = r.saving_ms->mid;
      sj["high"] = r.saving_ms->high;
      rj["saving_ms"] = std::move(sj);
    }
    if (!r.claims.empty()) {
      Json cj = Json::object();
      Json kernels = Json::array();
      for (const auto k : r.claims.kernels) kernels.push_back(static_cast<long long>(k));
      Json groups = Json::array();
      for (const auto g : r.claims.op_groups) groups.push_back(static_cast<long long>(g));
      cj["kernels"] = std::move(kernels);
      cj["op_groups"] = std::move(groups);
      rj["claims"] = std::move(cj);
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
