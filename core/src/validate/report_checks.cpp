// Level-3 report validator: a native port of TraceLens's validate_report on
// <dir>/analysis.md (docs/report.md, "Validating analysis.md"), rule for rule and in the same
// order: required sections, the executive-summary metrics table, unfilled placeholders, Args
// cells, the kernel-fusion Impact format, the cross-check against priority_data.json (R1-R4),
// reasoning-candidate markers (R5) and the report's marker structure.
#include <array>
#include <cmath>
#include <exception>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <system_error>
#include <unordered_set>

#include <rapidjson/document.h>

#include "findings_patterns.hpp"
#include "loupe/core/util/json_guards.hpp"
#include "loupe/core/validate/validator.hpp"
#include "loupe/layout.hpp"
#include "loupe/python_format.hpp"
#include "loupe/text.hpp"
#include "marker_checks.hpp"
#include "marker_patterns.hpp"
#include "metrics_fixture.hpp"
#include "python_text.hpp"
#include "result_of.hpp"
#include "unicode_tables.hpp"
#include "utf8.hpp"

namespace loupe::core {
namespace {

namespace fs = std::filesystem;
using namespace validate_detail;

// Raised where TraceLens's validate_report itself raises (a document of the wrong shape).
struct PythonRaises : std::runtime_error {
  using std::runtime_error::runtime_error;
};

constexpr std::string_view kReportName = "analysis.md";
constexpr std::array<std::string_view, 6> kRequiredHeaders = {
    "Executive Summary",
    "Compute Kernel Optimizations",
    "Kernel Fusion Opportunities (Experimental)",
    "System-Level Optimizations",
    "Detailed Analysis",
    "Appendix"};
constexpr std::array<std::string_view, 5> kMetricsRows = {
    "Total Time", "Compute %", "Idle %", "Exposed Communication %", "Top Bottleneck Category"};
constexpr std::array<std::string_view, 7> kKnownPlaceholders = {
    "<Brief Title>",  "<Library>", "<platform>", "<model>",
    "<architecture>", "<scale>",   "<precision>"};
constexpr double kMarkerTolerance = 0.005;

// str.lstrip(c) for one ASCII character.
std::string_view strip_char_left(std::string_view text, char c) {
  while (!text.empty() && text.front() == c) text.remove_prefix(1);
  return text;
}

using loupe::text::contains;

// content[start:end] where `end` is str.find's result used as "if end > 0 else rest".
std::string_view section_from(std::string_view content, std::size_t start, bool end_if_positive) {
  const std::size_t next = content.find("\n## ", start + 1);
  if (next == std::string_view::npos || (end_if_positive && next == 0)) {
    return content.substr(start);
  }
  return content.substr(start, next - start);
}

std::size_t code_points(std::string_view text) {
  std::size_t n = 0;
  for (const char c : text) n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1U : 0U;
  return n;
}

// ---- executive summary and placeholders ----

void check_executive_summary(std::string_view content, std::vector<std::string>& errors) {
  const std::size_t start = content.find("## Executive Summary");
  if (start == std::string_view::npos) return;
  const std::string_view block = section_from(content, start, true);
  if (!contains(block, "|")) {
    errors.emplace_back("No metrics table found under ## Executive Summary");
    return;
  }
  for (const auto row : kMetricsRows) {
    if (!contains(block, row)) errors.push_back("Missing metrics row: " + std::string(row));
  }
  for (const std::string_view placeholder : {"X ms", "Y%", "Z%", "W%"}) {
    if (contains(block, "| " + std::string(placeholder))) {
      errors.push_back("Placeholder value '" + std::string(placeholder) +
                       "' in Executive Summary table");
    }
  }
}

// re.findall(r"<[A-Z][a-z_ ]+>") kept when it is one of the template's known placeholders.
void check_placeholders(std::string_view content, std::vector<std::string>& errors) {
  std::set<std::string> found;
  for (std::size_t i = 0; i + 2 < content.size(); ++i) {
    if (content[i] != '<' || content[i + 1] < 'A' || content[i + 1] > 'Z') continue;
    std::size_t j = i + 2;
    while (j < content.size() &&
           ((content[j] >= 'a' && content[j] <= 'z') || content[j] == '_' || content[j] == ' ')) {
      ++j;
    }
    if (j == i + 2 || j >= content.size() || content[j] != '>') continue;
    const std::string_view match = content.substr(i, j + 1 - i);
    for (const auto known : kKnownPlaceholders) {
      if (match == known) found.emplace(match);
    }
    i = j;
  }
  if (found.empty()) return;
  std::string joined;
  for (const auto& p : found) joined += (joined.empty() ? "" : ", ") + p;
  errors.push_back("Unfilled placeholders: " + joined);
}

// ---- Args cells ----

// _TABLE_HEADER_RE.match(line): ^\|.*\|\s*Args(?: \(T1\))?\s*\|.*\|\s*$ on one line.
bool is_args_header(std::string_view line) {
  if (line.empty() || line[0] != '|') return false;
  const std::string_view trimmed = rstrip(line);
  if (trimmed.empty() || trimmed.back() != '|') return false;
  const std::size_t last_pipe = trimmed.size() - 1;
  for (std::size_t i = 1; i < line.size(); ++i) {
    if (line[i] != '|') continue;
    std::size_t pos = skip_while(line, i + 1, is_space_char);
    if (!literal_at(line, pos, "Args")) continue;
    pos += 4;
    for (const bool with_t1 : {true, false}) {
      std::size_t p = pos;
      if (with_t1) {
        if (!literal_at(line, p, " (T1)")) continue;
        p += 5;
      }
      p = skip_while(line, p, is_space_char);
      if (p < line.size() && line[p] == '|' && p < last_pipe) return true;
    }
  }
  return false;
}

std::vector<std::string_view> cells_of(std::string_view row) {
  std::vector<std::string_view> cells;
  for (const auto cell : split_on(strip_char(row, '|'), '|')) cells.push_back(strip(cell));
  return cells;
}

void check_args_cells(std::string_view content, const fs::path& dir,
                      std::vector<std::string>& errors) {
  std::error_code ec;
  const fs::path data_dir = dir / "category_data";
  if (!fs::is_directory(data_dir, ec)) return;
  std::unordered_set<std::string> valid;
  for (const auto& entry : fs::directory_iterator(data_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 13 || name.compare(name.size() - 13, 13, "_metrics.json") != 0) continue;
    const MetricsFixture fixture = load_metrics_fixture(entry.path());
    if (!fixture.io_error.empty()) throw PythonRaises(fixture.io_error);
    valid.insert(fixture.args.begin(), fixture.args.end());
  }
  if (valid.empty()) return;
  const std::vector<std::string_view> lines = split_lines(content);
  for (std::size_t h = 0; h < lines.size(); ++h) {
    if (!is_args_header(lines[h])) continue;
    const auto columns = cells_of(lines[h]);
    std::optional<std::size_t> column;
    for (std::size_t c = 0; c < columns.size() && !column; ++c) {
      if (columns[c] == "Args (T1)") column = c;
    }
    for (std::size_t c = 0; c < columns.size() && !column; ++c) {
      if (columns[c] == "Args") column = c;
    }
    if (!column) continue;
    for (std::size_t r = h + 2; r < lines.size(); ++r) {
      if (strip(lines[r]).substr(0, 1) != "|") break;
      const auto cells = cells_of(lines[r]);
      if (*column < cells.size() && !cells[*column].empty() &&
          !valid.contains(std::string(cells[*column]))) {
        errors.push_back("analysis.md line " + std::to_string(r + 1) +
                         ": Args cell does not match any operations[].args in "
                         "category_data/*_metrics.json (paste verbatim, keep <br>): " +
                         std::string(cells[*column]));
      }
    }
  }
}

// ---- kernel fusion Impact format ----

bool is_digit_or_dot(char32_t cp) { return cp == U'.' || is_decimal_digit(cp); }

// Each occurrence of "impact_score:" followed by \s*[\d.]+ ; returns the offsets after the run.
std::vector<std::size_t> impact_values(std::string_view text) {
  std::vector<std::size_t> ends;
  for (std::size_t at = text.find("impact_score:"); at != std::string_view::npos;
       at = text.find("impact_score:", at + 1)) {
    const std::size_t start = skip_while(text, at + 13, is_space_char);
    const std::size_t end = skip_while(text, start, is_digit_or_dot);
    if (end > start) ends.push_back(end);
  }
  return ends;
}

bool digits_at(std::string_view text, std::size_t& pos) {
  const std::size_t end = skip_while(text, pos, is_decimal_digit);
  if (end == pos) return false;
  pos = end;
  return true;
}

bool standalone_impact(std::string_view text) {
  for (std::size_t pos : impact_values(text)) {
    pos = skip_while(text, pos, is_space_char);
    if (!literal_at(text, pos, "(perf-model coverage ")) continue;
    pos += 21;
    if (!digits_at(text, pos) || !literal_at(text, pos, "/")) continue;
    ++pos;
    if (digits_at(text, pos) && literal_at(text, pos, " kernels)")) return true;
  }
  return false;
}

bool comparative_impact(std::string_view text) {
  for (const std::size_t pos : impact_values(text)) {
    if (skip_while(text, pos, is_space_char) == text.size()) return true;
  }
  return false;
}

void check_fusion_impact(std::string_view content, std::optional<Scope> scope,
                         std::vector<std::string>& errors) {
  const std::size_t start = content.find("## Kernel Fusion Opportunities");
  if (start == std::string_view::npos) return;
  for (const auto line : split_lines(section_from(content, start, true))) {
    if (strip(line).substr(0, 10) != "**Impact**") continue;
    const std::size_t last = line.rfind("**Impact**");
    const std::string_view text = strip(strip_char_left(strip(line.substr(last + 10)), ':'));
    if (text.empty()) continue;
    const std::string got(text);
    if (scope == Scope::Standalone) {
      if (!standalone_impact(text)) {
        errors.push_back(
            "Kernel Fusion Impact format error: standalone mode requires "
            "'impact_score: X.X (perf-model coverage Y/Z kernels)' but got: " +
            got);
      }
    } else if (contains(text, "(perf-model coverage")) {
      errors.push_back(
          "Kernel Fusion Impact format error: comparative mode should not include "
          "perf-model coverage parenthetical but got: " +
          got);
    } else if (!comparative_impact(text)) {
      errors.push_back(
          "Kernel Fusion Impact format error: comparative mode requires "
          "'impact_score: X.X' but got: " +
          got);
    }
  }
}

// ---- priority_data.json cross-check ----

// str(value) / repr(value) of a JSON value, for the messages.
std::string python_str(const rapidjson::Value* v, bool as_repr) {
  if (v == nullptr || v->IsNull()) return "None";
  if (v->IsBool()) return v->GetBool() ? "True" : "False";
  if (v->IsInt64()) return std::to_string(v->GetInt64());
  if (v->IsUint64()) return std::to_string(v->GetUint64());
  if (v->IsNumber()) return py::float_repr(v->GetDouble());
  if (v->IsString()) {
    const std::string_view s(v->GetString(), v->GetStringLength());
    return as_repr ? repr(s) : std::string(s);
  }
  throw PythonRaises("priority_data.json holds a list or object where a value is expected");
}

// float(value) of a JSON value; nullopt where Python raises TypeError / ValueError.
std::optional<double> python_float(const rapidjson::Value* v) {
  if (v == nullptr || v->IsNull() || v->IsArray() || v->IsObject()) return std::nullopt;
  if (v->IsBool()) return v->GetBool() ? 1.0 : 0.0;
  if (v->IsNumber()) return v->GetDouble();
  double d = 0;
  if (py::parse_float(std::string_view(v->GetString(), v->GetStringLength()), d)) return d;
  return std::nullopt;
}

const rapidjson::Value* get(const rapidjson::Value& object, const char* key) {
  if (!object.IsObject()) throw PythonRaises("priority_data.json entry is not an object");
  const auto it = object.FindMember(key);
  return it == object.MemberEnd() ? nullptr : &it->value;
}

// pd.get(key, []) or []: the list, or an empty one for a missing/falsy value.
std::vector<const rapidjson::Value*> list_at(const rapidjson::Value& pd, const char* key) {
  std::vector<const rapidjson::Value*> out;
  const rapidjson::Value* v = get(pd, key);
  if (v == nullptr || v->IsNull() || (v->IsBool() && !v->GetBool())) return out;
  if (v->IsArray()) {
    for (const auto& item : v->GetArray()) out.push_back(&item);
    return out;
  }
  if ((v->IsString() && v->GetStringLength() == 0) || (v->IsNumber() && v->GetDouble() == 0) ||
      (v->IsObject() && v->MemberCount() == 0)) {
    return out;
  }
  throw PythonRaises(std::string("priority_data.json \"") + key + "\" is not a list");
}

// The top_ops block: <!--\s*impact-begin[^>]*?\bkind=top_ops\b[^>]*?-->(.*?)<!--\s*impact-end\s*-->
// (DOTALL), found in one pass, linear in the text whatever the markers:
// * `[^>]*?-->` can only end at the first '>' after the name, so begin markers that share that
//   '>' share their closing and the text before it: it is found once for all of them;
// * \bkind=top_ops\b depends only on its own position in the text, so a begin marker has it when
//   the last stand-alone occurrence before its `-->` starts at or after the marker's name;
// * every end marker after one begin marker is also after any earlier one: when the first
//   top_ops begin marker has none after it, no later one has either.
std::optional<std::string_view> top_ops_body(std::string_view content) {
  constexpr std::string_view kKind = "kind=top_ops";
  const auto stands_alone = [&](std::size_t k) {
    return !is_word_char(decode_before(content, k).code_point) &&
           (k + kKind.size() >= content.size() ||
            !is_word_char(decode_at(content, k + kKind.size()).code_point));
  };
  std::optional<std::size_t> close;  // the first '>' after the current begin marker's name
  std::size_t last_kind = std::string_view::npos;  // the last stand-alone kind before it
  for (std::size_t at = content.find("<!--"); at != std::string_view::npos;
       at = content.find("<!--", at + 1)) {
    std::size_t pos = skip_while(content, at + 4, is_space_char);
    if (!literal_at(content, pos, "impact-begin")) continue;
    pos += 12;
    if (!close || *close < pos) {
      close = content.find('>', pos);
      if (*close == std::string_view::npos) return std::nullopt;  // no later marker closes
      last_kind = std::string_view::npos;
      if (*close >= pos + 2 + kKind.size()) {
        const std::string_view window = content.substr(pos, *close - 2 - pos);
        for (std::size_t k = window.find(kKind); k != std::string_view::npos;
             k = window.find(kKind, k + 1)) {
          if (stands_alone(pos + k)) last_kind = pos + k;
        }
      }
    }
    const std::size_t gt = *close;
    if (gt < pos + 2 || content.substr(gt - 2, 2) != "--") continue;
    if (last_kind == std::string_view::npos || last_kind < pos) continue;
    const std::size_t body_start = gt + 1;
    for (std::size_t end = content.find("<!--", body_start); end != std::string_view::npos;
         end = content.find("<!--", end + 1)) {
      std::size_t p = skip_while(content, end + 4, is_space_char);
      if (!literal_at(content, p, "impact-end")) continue;
      p = skip_while(content, p + 10, is_space_char);
      if (literal_at(content, p, "-->")) return content.substr(body_start, end - body_start);
    }
    return std::nullopt;
  }
  return std::nullopt;
}

bool is_separator_row(std::string_view line) {
  const std::string_view left = lstrip(line);
  if (left.empty() || left[0] != '|') return false;
  for (std::size_t pos = 0; pos < left.size();) {
    const DecodedChar d = decode_at(left, pos);
    if (!(d.code_point == U'|' || d.code_point == U'-' || d.code_point == U':' ||
          is_space_char(d.code_point))) {
      return false;
    }
    pos += d.length;
  }
  const std::string_view trimmed = rstrip(left);
  return trimmed.size() >= 3 && trimmed.back() == '|';
}

void check_priority_consistency(std::string_view content, const fs::path& dir,
                                std::vector<std::string>& errors) {
  const fs::path pd_path = dir / layout::kPriorityData;
  std::error_code ec;
  if (!fs::exists(pd_path, ec)) return;
  std::ifstream in(pd_path, std::ios::binary);
  if (!in || fs::is_directory(pd_path, ec)) return;
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  rapidjson::Document pd;
  if (loupe::core::parse_json_exact(pd, bytes)) return;
  const auto findings = list_at(pd, "findings");
  const auto priorities = list_at(pd, "priorities");

  const std::size_t start = content.find("## Compute Kernel Optimizations");
  if (start == std::string_view::npos) return;
  const std::string_view section = section_from(content, start, false);

  const std::size_t headings = count_p_headings(section);
  if (headings != findings.size()) {
    errors.push_back("R1: Compute Kernel Optimizations has " + std::to_string(headings) +
                     " P-item headings but priority_data.json has " +
                     std::to_string(findings.size()) + " findings");
  }
  std::size_t idx = 0;
  for (const auto& marker : find_begin_markers(section)) {
    if (find_kind(marker.attributes) != std::string_view("p_item")) continue;
    std::map<std::string_view, std::string_view> attrs;
    for (const auto& [k, v] : find_attributes(marker.attributes)) attrs[k] = v;
    if (idx >= findings.size()) {
      errors.push_back("R2: extra kind=p_item marker #" + std::to_string(idx + 1) +
                       " in Compute Kernel Optimizations beyond " +
                       std::to_string(findings.size()) + " findings");
      break;
    }
    const rapidjson::Value& f = *findings[idx];
    const rapidjson::Value* category = get(f, "category");
    const auto cat_attr = attrs.find("category");
    const bool same =
        cat_attr != attrs.end() && category != nullptr && category->IsString() &&
        cat_attr->second == std::string_view(category->GetString(), category->GetStringLength());
    if (!same) {
      errors.push_back("R2: P-item marker #" + std::to_string(idx + 1) +
                       " category=" + (cat_attr == attrs.end() ? "None" : repr(cat_attr->second)) +
                       " != findings[" + std::to_string(idx) +
                       "].category=" + python_str(category, true));
    }
    for (const auto& [name, key] :
         {std::pair{"low", "impact_score_low"}, std::pair{"mid", "impact_score"},
          std::pair{"high", "impact_score_high"}}) {
      const auto got = attrs.find(name);
      if (got == attrs.end()) continue;
      const rapidjson::Value* raw = get(f, key);
      double g = 0;
      const bool got_is_float = py::parse_float(got->second, g);
      const auto r = python_float(raw);
      bool mismatch = false;
      if (got_is_float && r) {
        mismatch = std::fabs(g - *r) > kMarkerTolerance;
      } else {
        mismatch = got->second !=
                   (raw == nullptr || raw->IsNull() ? std::string("null") : python_str(raw, false));
      }
      if (mismatch) {
        errors.push_back("R3: P-item marker #" + std::to_string(idx + 1) + " " + name + "=" +
                         std::string(got->second) + " != findings[" + std::to_string(idx) + "]." +
                         key + "=" + python_str(raw, false));
      }
    }
    ++idx;
  }

  if (const auto body = top_ops_body(content)) {
    std::size_t rows = 0;
    for (const auto line : split_lines(*body)) {
      if (lstrip(line).substr(0, 1) == "|" && !is_separator_row(line)) ++rows;
    }
    const std::size_t data_rows = rows > 0 ? rows - 1 : 0;
    if (data_rows != priorities.size()) {
      errors.push_back("R4: Top Operations table has " + std::to_string(data_rows) +
                       " data rows but priority_data.json::priorities has " +
                       std::to_string(priorities.size()) + " entries");
    }
  }
}

// ---- reasoning candidates ----

std::optional<std::string_view> detailed_subsection(std::string_view content,
                                                    std::string_view header) {
  const std::size_t da = content.find("## Detailed Analysis");
  if (da == std::string_view::npos) return std::nullopt;
  const std::string_view da_text = content.substr(da);
  const std::size_t sub = da_text.find(header);
  if (sub == std::string_view::npos) return std::nullopt;
  const std::string_view rest = da_text.substr(sub + header.size());
  std::size_t end = rest.size();
  for (std::size_t line = 0; line <= rest.size();) {
    if (literal_at(rest, line, "### ") || literal_at(rest, line, "## ")) {
      end = line;
      break;
    }
    const std::size_t nl = rest.find('\n', line);
    if (nl == std::string_view::npos) break;
    line = nl + 1;
  }
  return rest.substr(0, end);
}

void check_reasoning_candidates(std::string_view content, std::vector<std::string>& errors) {
  for (const auto& [tier, header] :
       {std::pair<std::string_view, std::string_view>{"compute", "### Compute Kernel Insights"},
        {"fusion", "### Kernel Fusion Insights"},
        {"system", "### System-Level Insights"}}) {
    const auto sub = detailed_subsection(content, header);
    if (!sub) continue;
    const std::size_t headings = count_detail_headings(*sub);
    std::size_t markers = 0;
    for (const auto& c : find_candidates(*sub)) markers += lower(c.tier) == tier ? 1U : 0U;
    if (headings > 0 && markers != headings) {
      errors.push_back("R5: " + std::string(header.substr(4)) + " has " + std::to_string(headings) +
                       " #### P<N>: headings but " + std::to_string(markers) +
                       " reasoning-candidate tier=" + std::string(tier) + " markers");
    }
  }
}

}  // namespace

ValidationResult validate_report(const fs::path& output_dir, std::optional<Scope> scope) {
  const fs::path path = output_dir / kReportName;
  try {
    std::error_code ec;
    if (!fs::exists(path, ec)) return finish({"<file not found>"});
    if (fs::is_directory(path, ec))
      return io_failure("Report path is a directory: " + path.string());
    std::ifstream stream(path, std::ios::binary);
    if (!stream) return io_failure("Cannot open report: " + path.string());
    const std::string bytes((std::istreambuf_iterator<char>(stream)),
                            std::istreambuf_iterator<char>());
    if (!is_valid_utf8(bytes)) return io_failure("Report is not valid UTF-8: " + path.string());
    const std::string content = normalize_newlines(bytes);
    if (code_points(strip(content)) < 100) return finish({"<report is empty or too short>"});

    std::vector<std::string> errors;
    for (const auto header : kRequiredHeaders) {
      if (!contains(content, "## " + std::string(header))) {
        errors.push_back("Missing section: " + std::string(header));
      }
    }
    check_executive_summary(content, errors);
    check_placeholders(content, errors);
    check_args_cells(content, output_dir, errors);
    check_fusion_impact(content, scope, errors);
    check_priority_consistency(content, output_dir, errors);
    check_reasoning_candidates(content, errors);
    const std::set<std::string> kinds = scan_markers(content, std::string(kReportName), errors);
    if (!kinds.contains("top_ops"))
      errors.emplace_back("analysis.md: missing required kind=top_ops");
    return finish(std::move(errors));
  } catch (const PythonRaises& e) {
    return io_failure(std::string("TraceLens's validator raises here: ") + e.what());
  } catch (const std::exception& e) {
    return io_failure(std::string("Report validation failed: ") + e.what());
  }
}

}  // namespace loupe::core
