// The common findings renderer: a findings document (docs/findings-schema.md) to the markdown
// grammar TraceLens's validator accepts (docs/contracts/findings_and_validator.md §1 and §6).
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>

#include "loupe/findings.hpp"
#include "loupe/findings_json.hpp"

namespace loupe::core {

// The document breaks a rule of the schema or would render into something invalid (a line
// break inside a one-line field, a '|' in a table cell, a forbidden heading in free text...).
class RenderError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Renders a typed findings document (read with findings::from_json, or built in memory).
// Throws RenderError when its text or blocks would render into an invalid file.
std::string render_findings(const findings::Document& document);

// Parses findings JSON text (strictly: no duplicate keys, bounded depth) into the typed document;
// the error names the first problem (malformed JSON, or the member that breaks the schema).
findings::ReadResult read_findings_json(std::string_view json_text);

// read_findings_json, then render_findings. Throws RenderError (also for malformed JSON).
std::string render_findings_json(std::string_view json_text);

// Where a findings file goes, relative to the output directory:
// system and fusion styles: system_findings/<category>_findings.md;
// compute style: category_findings/<category>_findings.md.
std::string findings_relative_path(std::string_view style, std::string_view category);

}  // namespace loupe::core
