#include "loupe/core/render/renderer.hpp"

#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/json_guards.hpp"
#include "loupe/layout.hpp"

#include <string>
#include <vector>

#include "loupe/findings.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

namespace fd = findings;

// ---- access helpers with schema errors (blocks are kept as JSON in the typed document) -------
std::string context_join(const std::string& where, const char* key) {
  return where.empty() ? key : where + "." + key;
}

std::string required_string(const Json& obj, const char* key, const std::string& where) {
  const Json* v = obj.find(key);
  if (v == nullptr || !v->is_string()) {
    throw RenderError(context_join(where, key) + ": required string is missing");
  }
  return v->as_string();
}

const Json::Array& required_array(const Json& obj, const char* key, const std::string& where) {
  const Json* v = obj.find(key);
  if (v == nullptr || !v->is_array()) {
    throw RenderError(context_join(where, key) + ": required array is missing");
  }
  return v->as_array();
}

// ---- text safety: free text must not create structure the validator would misread ---------
// The SDK's text rules (findings::text_problem) are the only ones: what inline_text() and
// table_cell() produce always passes here.
void check_text(std::string_view text, const std::string& where, fd::TextKind kind) {
  if (auto problem = fd::text_problem(text, kind)) throw RenderError(where + ": " + *problem);
}
void check_free_text(std::string_view text, const std::string& where, bool one_line) {
  check_text(text, where, one_line ? fd::TextKind::Line : fd::TextKind::Block);
}

// True when the text would match the validator's P-heading pattern after "### ".
bool looks_like_p_heading(std::string_view text) {
  for (size_t i = 0; i + 1 < text.size(); ++i) {
    if (text[i] != 'P' || text[i + 1] < '0' || text[i + 1] > '9') continue;
    size_t j = i + 1;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9') ++j;
    while (j < text.size() && (text[j] == ' ' || text[j] == '\t')) ++j;
    if (j < text.size() && text[j] == ':') return true;
  }
  return false;
}

// ---- numbers ------------------------------------------------------------------------------
// A marker value: the JSON number spelled like Python prints it, or "null" (findings::from_json
// has checked that each is a number or null).
std::string marker_value(const Json& v) {
  if (v.is_int()) return std::to_string(v.as_int());
  if (v.is_number()) return py::float_repr(v.as_double());
  return "null";
}

// ---- blocks -------------------------------------------------------------------------------
void render_table(std::string& out, const Json& block, const std::string& where) {
  const Json::Array& columns = required_array(block, "columns", where);
  const Json::Array& rows = required_array(block, "rows", where);
  if (columns.empty()) throw RenderError(where + ".columns: a table needs at least one column");
  auto cell_text = [&](const Json& cell, const std::string& cell_where) {
    if (!cell.is_string()) throw RenderError(cell_where + ": table cells must be strings");
    check_text(cell.as_string(), cell_where, fd::TextKind::Cell);
    return cell.as_string();
  };
  out += "|";
  for (size_t c = 0; c < columns.size(); ++c) {
    // Appended piecewise: `"literal" + std::string` trips GCC 12's -Wrestrict false positive.
    out += ' ';
    out += cell_text(columns[c], where + ".columns[" + std::to_string(c) + "]");
    out += " |";
  }
  out += "\n|";
  for (size_t c = 0; c < columns.size(); ++c) out += "---|";
  out += "\n";
  for (size_t r = 0; r < rows.size(); ++r) {
    const std::string row_where = where + ".rows[" + std::to_string(r) + "]";
    if (!rows[r].is_array() || rows[r].size() != columns.size()) {
      throw RenderError(row_where + ": must be an array with one cell per column");
    }
    out += "|";
    const Json::Array& cells = rows[r].as_array();
    for (size_t c = 0; c < cells.size(); ++c) {
      const std::string text = cell_text(cells[c], row_where + "[" + std::to_string(c) + "]");
      out += text.empty() ? " |" : " " + text + " |";
    }
    out += "\n";
  }
}

void render_string_items(std::string& out, const Json::Array& items, const std::string& where,
                         const char* prefix) {
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string item_where = where + "[" + std::to_string(i) + "]";
    if (!items[i].is_string()) throw RenderError(item_where + ": must be a string");
    check_free_text(items[i].as_string(), item_where, true);
    out += prefix + items[i].as_string() + "\n";
  }
}

void render_block(std::string& out, const Json& block, const std::string& where) {
  const std::string type = required_string(block, "type", where);
  if (type == "paragraph") {
    const std::string text = required_string(block, "text", where);
    check_free_text(text, where + ".text", false);
    out += text + "\n";
  } else if (type == "quote") {
    const std::string text = required_string(block, "text", where);
    check_free_text(text, where + ".text", true);
    out += "> " + text + "\n";
  } else if (type == "heading") {
    const std::string text = required_string(block, "text", where);
    check_free_text(text, where + ".text", true);
    if (looks_like_p_heading(text)) {
      throw RenderError(where + ".text: a subheading must not look like a 'P<N>:' card heading");
    }
    out += "### " + text + "\n";
  } else if (type == "bullets") {
    render_string_items(out, required_array(block, "items", where), where + ".items", "- ");
  } else if (type == "numbered") {
    const Json::Array& items = required_array(block, "items", where);
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string item_where = where + ".items[" + std::to_string(i) + "]";
      const std::string text = required_string(items[i], "text", item_where);
      check_free_text(text, item_where + ".text", true);
      out += std::to_string(i + 1) + ". " + text + "\n";
      if (const Json* sub = items[i].find("bullets"); sub != nullptr && sub->is_array()) {
        render_string_items(out, sub->as_array(), item_where + ".bullets", "   - ");
      }
    }
  } else if (type == "table") {
    render_table(out, block, where);
  } else {
    throw RenderError(where + ".type: unknown block type '" + type + "'");
  }
}

void render_blocks(std::string& out, const std::vector<Json>& blocks, const std::string& where) {
  for (size_t i = 0; i < blocks.size(); ++i) {
    out += "\n";
    render_block(out, blocks[i], where + "[" + std::to_string(i) + "]");
  }
}

void render_sections(std::string& out, const std::vector<fd::Section>& sections,
                     const std::string& where) {
  for (size_t i = 0; i < sections.size(); ++i) {
    const std::string section_where = where + "[" + std::to_string(i) + "]";
    const std::string& heading = sections[i].heading;
    check_free_text(heading, section_where + ".heading", true);
    if (heading == "Recommendations" || heading == "Detailed Analysis") {
      std::string message = section_where;
      message += ".heading: '" + heading + "' is reserved";
      throw RenderError(message);
    }
    out += "\n## " + heading + "\n";
    render_blocks(out, sections[i].blocks, section_where + ".blocks");
  }
}

// ---- cards ------------------------------------------------------------------------------
// The heading icon of a fusion card (findings::from_json has checked the level).
std::string fusion_icon(const fd::Recommendation& card, const std::string& where) {
  const std::string level = card.confidence ? card.confidence->level : "";
  if (level == "High" || level == "high") return "\xF0\x9F\x94\xB4 ";      // U+1F534
  if (level == "Medium" || level == "medium") return "\xF0\x9F\x9F\xA1 ";  // U+1F7E1
  if (level == "Low" || level == "low") return "\xF0\x9F\x9F\xA2 ";        // U+1F7E2
  throw RenderError(where + ".confidence.level: must be High, Medium or Low");
}

void render_card(std::string& out, const fd::Recommendation& card, size_t number, fd::Style style,
                 const std::string& where) {
  check_free_text(card.title, where + ".title", true);
  const std::string library = card.library.value_or("");
  check_free_text(library, where + ".library", true);
  const std::string icon = style == fd::Style::Fusion ? fusion_icon(card, where) : "";
  out += "\n### " + icon + "P" + std::to_string(number) + ": " + card.title;
  if (!library.empty() && library != "Unknown") out += " (" + library + ")";
  out += "\n";

  check_free_text(card.insight, where + ".insight", true);
  check_free_text(card.action, where + ".action", true);
  out += "**Insight**: " + card.insight + "\n";
  out += "**Action**: " + card.action + "\n";

  if (!card.impact) {
    out += "<!-- impact-begin kind=p_item low=null mid=null high=null -->\n";
    out += "**Impact**: Not quantifiable from trace data\n";
  } else {
    check_free_text(card.impact->text, where + ".impact.text", true);
    out += "<!-- impact-begin kind=p_item low=" + marker_value(card.impact->low) +
           " mid=" + marker_value(card.impact->mid) + " high=" + marker_value(card.impact->high) +
           " -->\n";
    out += "**Impact**: " + card.impact->text + "\n";
  }
  out += "<!-- impact-end -->\n";

  if (card.warning && !card.warning->empty()) {
    check_free_text(*card.warning, where + ".warning", true);
    out += "> **Warning \xE2\x80\x94 estimated:** " + *card.warning + "\n";
  }
  if (card.confidence) {
    const std::string& reason = card.confidence->reason;
    check_free_text(reason, where + ".confidence.reason", true);
    out += "**Confidence**: " + card.confidence->level + (reason.empty() ? "" : " -- " + reason) +
           "\n";
  }
}

bool has_table(const std::vector<Json>& blocks) {
  for (const auto& b : blocks) {
    const Json* type = b.find("type");
    if (type != nullptr && type->is_string() && type->as_string() == "table") return true;
  }
  return false;
}

void render_detail(std::string& out, const fd::Detail& detail, size_t number, fd::Style style,
                   const std::string& where) {
  if (detail.rank < 0) throw RenderError(where + ".rank: must be a non-negative integer");
  check_free_text(detail.title, where + ".title", true);
  const char* style_name = fd::to_string(style);
  out += "\n<!-- reasoning-candidate tier=" + std::string(style_name) +
         " rank=" + std::to_string(detail.rank) + " -->\n";
  out += "#### ";
  if (style != fd::Style::Fusion) {
    out += 'P';
    out += std::to_string(number);
    out += ": ";
  }
  out += detail.title + "\n";

  check_free_text(detail.identification, where + ".identification", true);
  out += "**Identification:** " + detail.identification + "\n";

  if (style == fd::Style::Compute && !has_table(detail.data)) {
    throw RenderError(where + ".data: compute blocks need the operations table");
  }
  out += "\n**Data:**\n";
  render_blocks(out, detail.data, where + ".data");

  if (detail.reasoning && !detail.reasoning->empty()) {
    check_free_text(*detail.reasoning, where + ".reasoning", true);
    out += "\n**Reasoning for Slowdown:** " + *detail.reasoning + "\n";
  }
  if (detail.resolution && !detail.resolution->empty()) {
    check_free_text(*detail.resolution, where + ".resolution", true);
    out += "\n**Resolution:** " + *detail.resolution + "\n";
  }

  if (!detail.estimate) {
    out += "\n**Impact estimate:** Impact estimate is not quantifiable from trace data.\n";
    return;
  }
  const std::string estimate_where = where + ".impact_estimate";
  out += "\n**Impact estimate:**\n";
  out += "<!-- impact-begin kind=detail_estimate low=" + marker_value(detail.estimate->low) +
         " high=" + marker_value(detail.estimate->high) + " -->\n";
  for (size_t i = 0; i < detail.estimate->bullets.size(); ++i) {
    const std::string& text = detail.estimate->bullets[i];
    check_free_text(text, estimate_where + ".bullets[" + std::to_string(i) + "]", true);
    out += "- " + text + "\n";
  }
  out += "<!-- impact-end -->\n";
}

}  // namespace

std::string findings_relative_path(std::string_view style, std::string_view category) {
  return layout::findings_path(style == "compute", category);
}

std::string render_findings(const findings::Document& doc) {
  // Documents built in memory get the same shape checks as those read from JSON.
  if (doc.recommendations.size() != doc.details.size()) {
    throw RenderError("recommendations and details must have one entry per finding (" +
                      std::to_string(doc.recommendations.size()) + " vs " +
                      std::to_string(doc.details.size()) + ")");
  }
  const std::string status = fd::to_string(doc.status);
  if (doc.status != fd::Status::Ok && !doc.recommendations.empty()) {
    throw RenderError("status " + status + " cannot carry recommendations");
  }
  check_free_text(doc.title, "title", true);
  check_free_text(doc.message, "message", true);

  std::string out = "# " + doc.title + "\n";
  if (doc.status != fd::Status::Ok) {
    out += "\n**Status**: " + status + "\n";
    if (!doc.message.empty()) {
      out +=
          (doc.status == fd::Status::Error ? "**Error**: " : "**Reason**: ") + doc.message + "\n";
    }
  }
  render_sections(out, doc.sections, "sections");

  out += "\n## Recommendations\n";
  if (doc.recommendations.empty()) {
    out += "\nNo recommendations for this category.\n";
  }
  for (size_t i = 0; i < doc.recommendations.size(); ++i) {
    render_card(out, doc.recommendations[i], i + 1, doc.style,
                "recommendations[" + std::to_string(i) + "]");
  }
  out += "\n## Detailed Analysis\n";
  if (doc.details.empty()) {
    out += "\nNo detailed analysis for this category.\n";
  }
  for (size_t i = 0; i < doc.details.size(); ++i) {
    render_detail(out, doc.details[i], i + 1, doc.style, "details[" + std::to_string(i) + "]");
  }
  render_sections(out, doc.trailing_sections, "trailing_sections");
  return out;
}

findings::ReadResult read_findings_json(std::string_view json_text) {
  findings::ReadResult result;
  rapidjson::Document doc;
  if (const auto error = parse_json_exact(doc, json_text)) {
    result.error =
        error->too_deep
            ? "findings document nests deeper than " + std::to_string(kMaxJsonDepth) + " levels"
            : "findings document is not valid JSON (byte " + std::to_string(error->offset) + ")";
    return result;
  }
  return findings::from_json(to_owned_json(doc));
}

std::string render_findings_json(std::string_view json_text) {
  const findings::ReadResult read = read_findings_json(json_text);
  if (!read.ok()) throw RenderError(read.error);
  return render_findings(read.document);
}

}  // namespace loupe::core
