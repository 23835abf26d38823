#include "loupe/core/renderer.hpp"

#include "loupe/core/json_guards.hpp"
#include "loupe/layout.hpp"

#include <string>
#include <vector>

#include "loupe/findings.hpp"
#include "loupe/python_format.hpp"

namespace loupe::core {

namespace {

using rapidjson::Value;

// ---- access helpers with schema errors -----------------------------------------------------
std::string context_join(const std::string& where, const char* key) {
  return where.empty() ? key : where + "." + key;
}

const Value* member(const Value& obj, const char* key) {
  if (!obj.IsObject()) return nullptr;
  const auto it = obj.FindMember(key);
  return it == obj.MemberEnd() ? nullptr : &it->value;
}

std::string required_string(const Value& obj, const char* key, const std::string& where) {
  const Value* v = member(obj, key);
  if (v == nullptr || !v->IsString()) {
    throw RenderError(context_join(where, key) + ": required string is missing");
  }
  return {v->GetString(), v->GetStringLength()};
}

std::string optional_string(const Value& obj, const char* key, const std::string& where) {
  const Value* v = member(obj, key);
  if (v == nullptr || v->IsNull()) return {};
  if (!v->IsString()) throw RenderError(context_join(where, key) + ": must be a string");
  return {v->GetString(), v->GetStringLength()};
}

const Value& required_array(const Value& obj, const char* key, const std::string& where) {
  const Value* v = member(obj, key);
  if (v == nullptr || !v->IsArray()) {
    throw RenderError(context_join(where, key) + ": required array is missing");
  }
  return *v;
}

// ---- text safety: free text must not create structure the validator would misread ---------
// The SDK's text rules (findings::text_problem) are the only ones: what inline_text() and
// table_cell() produce always passes here.
void check_text(std::string_view text, const std::string& where, findings::TextKind kind) {
  if (auto problem = findings::text_problem(text, kind)) throw RenderError(where + ": " + *problem);
}
void check_free_text(std::string_view text, const std::string& where, bool one_line) {
  check_text(text, where, one_line ? findings::TextKind::Line : findings::TextKind::Block);
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
// A marker value: the JSON number spelled like Python prints it, or "null".
std::string marker_value(const Value* v, const std::string& where) {
  if (v == nullptr || v->IsNull()) return "null";
  if (v->IsInt64()) return std::to_string(v->GetInt64());
  if (v->IsUint64()) return std::to_string(v->GetUint64());
  if (v->IsNumber()) return py::float_repr(v->GetDouble());
  throw RenderError(where + ": impact values must be numbers or null");
}

void check_null_consistency(const std::vector<std::string>& values, const std::string& where) {
  size_t nulls = 0;
  for (const auto& v : values) nulls += v == "null" ? 1 : 0;
  if (nulls != 0 && nulls != values.size()) {
    throw RenderError(where + ": impact values mix null and numbers");
  }
}

// ---- blocks -------------------------------------------------------------------------------
void render_table(std::string& out, const Value& block, const std::string& where) {
  const Value& columns = required_array(block, "columns", where);
  const Value& rows = required_array(block, "rows", where);
  if (columns.Empty()) throw RenderError(where + ".columns: a table needs at least one column");
  auto cell_text = [&](const Value& cell, const std::string& cell_where) {
    if (!cell.IsString()) throw RenderError(cell_where + ": table cells must be strings");
    std::string text(cell.GetString(), cell.GetStringLength());
    check_text(text, cell_where, findings::TextKind::Cell);
    return text;
  };
  out += "|";
  for (rapidjson::SizeType c = 0; c < columns.Size(); ++c) {
    // Appended piecewise: `"literal" + std::string` trips GCC 12's -Wrestrict false positive.
    out += ' ';
    out += cell_text(columns[c], where + ".columns[" + std::to_string(c) + "]");
    out += " |";
  }
  out += "\n|";
  for (rapidjson::SizeType c = 0; c < columns.Size(); ++c) out += "---|";
  out += "\n";
  for (rapidjson::SizeType r = 0; r < rows.Size(); ++r) {
    const std::string row_where = where + ".rows[" + std::to_string(r) + "]";
    if (!rows[r].IsArray() || rows[r].Size() != columns.Size()) {
      throw RenderError(row_where + ": must be an array with one cell per column");
    }
    out += "|";
    for (rapidjson::SizeType c = 0; c < rows[r].Size(); ++c) {
      const std::string text = cell_text(rows[r][c], row_where + "[" + std::to_string(c) + "]");
      out += text.empty() ? " |" : " " + text + " |";
    }
    out += "\n";
  }
}

void render_block(std::string& out, const Value& block, const std::string& where) {
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
    const Value& items = required_array(block, "items", where);
    for (rapidjson::SizeType i = 0; i < items.Size(); ++i) {
      const std::string item_where = where + ".items[" + std::to_string(i) + "]";
      if (!items[i].IsString()) throw RenderError(item_where + ": must be a string");
      const std::string text(items[i].GetString(), items[i].GetStringLength());
      check_free_text(text, item_where, true);
      out += "- " + text + "\n";
    }
  } else if (type == "numbered") {
    const Value& items = required_array(block, "items", where);
    for (rapidjson::SizeType i = 0; i < items.Size(); ++i) {
      const std::string item_where = where + ".items[" + std::to_string(i) + "]";
      const std::string text = required_string(items[i], "text", item_where);
      check_free_text(text, item_where + ".text", true);
      out += std::to_string(i + 1) + ". " + text + "\n";
      if (const Value* sub = member(items[i], "bullets"); sub != nullptr && sub->IsArray()) {
        for (rapidjson::SizeType k = 0; k < sub->Size(); ++k) {
          const std::string sub_where = item_where + ".bullets[" + std::to_string(k) + "]";
          if (!(*sub)[k].IsString()) throw RenderError(sub_where + ": must be a string");
          const std::string sub_text((*sub)[k].GetString(), (*sub)[k].GetStringLength());
          check_free_text(sub_text, sub_where, true);
          out += "   - " + sub_text + "\n";
        }
      }
    }
  } else if (type == "table") {
    render_table(out, block, where);
  } else {
    throw RenderError(where + ".type: unknown block type '" + type + "'");
  }
}

void render_blocks(std::string& out, const Value& blocks, const std::string& where) {
  for (rapidjson::SizeType i = 0; i < blocks.Size(); ++i) {
    out += "\n";
    render_block(out, blocks[i], where + "[" + std::to_string(i) + "]");
  }
}

void render_sections(std::string& out, const Value& sections, const std::string& where) {
  for (rapidjson::SizeType i = 0; i < sections.Size(); ++i) {
    const std::string section_where = where + "[" + std::to_string(i) + "]";
    const std::string heading = required_string(sections[i], "heading", section_where);
    check_free_text(heading, section_where + ".heading", true);
    if (heading == "Recommendations" || heading == "Detailed Analysis") {
      std::string message = section_where;
      message += ".heading: '" + heading + "' is reserved";
      throw RenderError(message);
    }
    out += "\n## " + heading + "\n";
    render_blocks(out, required_array(sections[i], "blocks", section_where),
                  section_where + ".blocks");
  }
}

// ---- cards ------------------------------------------------------------------------------
std::string fusion_icon(const Value& card, const std::string& where) {
  const Value* confidence = member(card, "confidence");
  if (confidence == nullptr || confidence->IsNull()) {
    throw RenderError(where + ".confidence: fusion cards need a confidence level");
  }
  const std::string level = required_string(*confidence, "level", where + ".confidence");
  if (level == "High" || level == "high") return "\xF0\x9F\x94\xB4 ";      // U+1F534
  if (level == "Medium" || level == "medium") return "\xF0\x9F\x9F\xA1 ";  // U+1F7E1
  if (level == "Low" || level == "low") return "\xF0\x9F\x9F\xA2 ";        // U+1F7E2
  throw RenderError(where + ".confidence.level: must be High, Medium or Low");
}

void render_card(std::string& out, const Value& card, size_t number, const std::string& style,
                 const std::string& where) {
  const std::string title = required_string(card, "title", where);
  check_free_text(title, where + ".title", true);
  const std::string library = optional_string(card, "library", where);
  check_free_text(library, where + ".library", true);
  const std::string icon = style == "fusion" ? fusion_icon(card, where) : "";
  out += "\n### " + icon + "P" + std::to_string(number) + ": " + title;
  if (!library.empty() && library != "Unknown") out += " (" + library + ")";
  out += "\n";

  const std::string insight = required_string(card, "insight", where);
  const std::string action = required_string(card, "action", where);
  check_free_text(insight, where + ".insight", true);
  check_free_text(action, where + ".action", true);
  out += "**Insight**: " + insight + "\n";
  out += "**Action**: " + action + "\n";

  const Value* impact = member(card, "impact");
  if (impact == nullptr || impact->IsNull()) {
    out += "<!-- impact-begin kind=p_item low=null mid=null high=null -->\n";
    out += "**Impact**: Not quantifiable from trace data\n";
  } else {
    const std::string impact_where = where + ".impact";
    const std::vector<std::string> values = {
        marker_value(member(*impact, "low"), impact_where + ".low"),
        marker_value(member(*impact, "mid"), impact_where + ".mid"),
        marker_value(member(*impact, "high"), impact_where + ".high")};
    check_null_consistency(values, impact_where);
    const std::string text = required_string(*impact, "text", impact_where);
    check_free_text(text, impact_where + ".text", true);
    out += "<!-- impact-begin kind=p_item low=" + values[0] + " mid=" + values[1] +
           " high=" + values[2] + " -->\n";
    out += "**Impact**: " + text + "\n";
  }
  out += "<!-- impact-end -->\n";

  const std::string warning = optional_string(card, "warning", where);
  if (!warning.empty()) {
    check_free_text(warning, where + ".warning", true);
    out += "> **Warning \xE2\x80\x94 estimated:** " + warning + "\n";
  }
  if (const Value* confidence = member(card, "confidence");
      confidence != nullptr && !confidence->IsNull()) {
    const std::string level = required_string(*confidence, "level", where + ".confidence");
    const std::string reason = optional_string(*confidence, "reason", where + ".confidence");
    check_free_text(reason, where + ".confidence.reason", true);
    out += "**Confidence**: " + level + (reason.empty() ? "" : " -- " + reason) + "\n";
  }
}

bool has_table(const Value& blocks) {
  for (const auto& b : blocks.GetArray()) {
    const Value* type = member(b, "type");
    if (type != nullptr && type->IsString() && std::string_view(type->GetString()) == "table") {
      return true;
    }
  }
  return false;
}

void render_detail(std::string& out, const Value& detail, size_t number, const std::string& style,
                   const std::string& where) {
  const Value* rank = member(detail, "rank");
  if (rank == nullptr || !rank->IsInt64() || rank->GetInt64() < 0) {
    throw RenderError(where + ".rank: must be a non-negative integer");
  }
  const std::string title = required_string(detail, "title", where);
  check_free_text(title, where + ".title", true);
  out += "\n<!-- reasoning-candidate tier=" + style + " rank=" + std::to_string(rank->GetInt64()) +
         " -->\n";
  out += "#### ";
  if (style != "fusion") {
    out += 'P';
    out += std::to_string(number);
    out += ": ";
  }
  out += title + "\n";

  const std::string identification = required_string(detail, "identification", where);
  check_free_text(identification, where + ".identification", true);
  out += "**Identification:** " + identification + "\n";

  const Value& data = required_array(detail, "data", where);
  if (style == "compute" && !has_table(data)) {
    throw RenderError(where + ".data: compute blocks need the operations table");
  }
  out += "\n**Data:**\n";
  render_blocks(out, data, where + ".data");

  const std::string reasoning = optional_string(detail, "reasoning", where);
  if (!reasoning.empty()) {
    check_free_text(reasoning, where + ".reasoning", true);
    out += "\n**Reasoning for Slowdown:** " + reasoning + "\n";
  }
  const std::string resolution = optional_string(detail, "resolution", where);
  if (!resolution.empty()) {
    check_free_text(resolution, where + ".resolution", true);
    out += "\n**Resolution:** " + resolution + "\n";
  }

  const Value* estimate = member(detail, "impact_estimate");
  if (estimate == nullptr || estimate->IsNull()) {
    out += "\n**Impact estimate:** Impact estimate is not quantifiable from trace data.\n";
    return;
  }
  const std::string estimate_where = where + ".impact_estimate";
  const std::vector<std::string> values = {
      marker_value(member(*estimate, "low"), estimate_where + ".low"),
      marker_value(member(*estimate, "high"), estimate_where + ".high")};
  check_null_consistency(values, estimate_where);
  out += "\n**Impact estimate:**\n";
  out +=
      "<!-- impact-begin kind=detail_estimate low=" + values[0] + " high=" + values[1] + " -->\n";
  const Value& bullets = required_array(*estimate, "bullets", estimate_where);
  for (rapidjson::SizeType i = 0; i < bullets.Size(); ++i) {
    const std::string bullet_where = estimate_where + ".bullets[" + std::to_string(i) + "]";
    if (!bullets[i].IsString()) throw RenderError(bullet_where + ": must be a string");
    const std::string text(bullets[i].GetString(), bullets[i].GetStringLength());
    check_free_text(text, bullet_where, true);
    out += "- " + text + "\n";
  }
  out += "<!-- impact-end -->\n";
}

}  // namespace

std::string findings_relative_path(std::string_view style, std::string_view category) {
  return layout::findings_path(style == "compute", category);
}

std::string render_findings(const Value& doc) {
  if (!doc.IsObject()) throw RenderError("findings document must be a JSON object");
  if (required_string(doc, "schema", "") != "loupe.findings/1") {
    throw RenderError("schema: expected 'loupe.findings/1'");
  }
  const std::string style = required_string(doc, "style", "");
  if (style != "compute" && style != "system" && style != "fusion") {
    throw RenderError("style: must be compute, system or fusion");
  }
  const std::string status = required_string(doc, "status", "");
  if (status != "OK" && status != "NO_DATA" && status != "ERROR") {
    throw RenderError("status: must be OK, NO_DATA or ERROR");
  }
  const std::string category = required_string(doc, "category", "");
  const std::string title = required_string(doc, "title", "");
  check_free_text(title, "title", true);
  const std::string message = optional_string(doc, "message", "");
  check_free_text(message, "message", true);

  const Value& recommendations = required_array(doc, "recommendations", "");
  const Value& details = required_array(doc, "details", "");
  if (recommendations.Size() != details.Size()) {
    throw RenderError("recommendations and details must have one entry per finding (" +
                      std::to_string(recommendations.Size()) + " vs " +
                      std::to_string(details.Size()) + ")");
  }
  if (status != "OK" && !recommendations.Empty()) {
    throw RenderError("status " + status + " cannot carry recommendations");
  }

  std::string out = "# " + title + "\n";
  if (status != "OK") {
    out += "\n**Status**: " + status + "\n";
    if (!message.empty())
      out += (status == "ERROR" ? "**Error**: " : "**Reason**: ") + message + "\n";
  }
  render_sections(out, required_array(doc, "sections", ""), "sections");

  out += "\n## Recommendations\n";
  if (recommendations.Empty()) {
    out += "\nNo recommendations for this category.\n";
  }
  for (rapidjson::SizeType i = 0; i < recommendations.Size(); ++i) {
    render_card(out, recommendations[i], i + 1, style,
                "recommendations[" + std::to_string(i) + "]");
  }
  out += "\n## Detailed Analysis\n";
  if (details.Empty()) {
    out += "\nNo detailed analysis for this category.\n";
  }
  for (rapidjson::SizeType i = 0; i < details.Size(); ++i) {
    render_detail(out, details[i], i + 1, style, "details[" + std::to_string(i) + "]");
  }
  if (const Value* trailing = member(doc, "trailing_sections");
      trailing != nullptr && trailing->IsArray()) {
    render_sections(out, *trailing, "trailing_sections");
  }
  return out;
}

std::string render_findings_json(std::string_view json_text) {
  rapidjson::Document doc;
  if (const auto error = parse_json_exact(doc, json_text)) {
    if (error->too_deep) {
      throw RenderError("findings document nests deeper than " + std::to_string(kMaxJsonDepth) +
                        " levels");
    }
    throw RenderError("findings document is not valid JSON (byte " + std::to_string(error->offset) +
                      ")");
  }
  return render_findings(doc);
}

}  // namespace loupe::core
