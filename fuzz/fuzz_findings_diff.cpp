// What `loupe diff-findings` and `loupe analyze --fail-on` read from the user, on arbitrary
// bytes: the bytes as a findings.json (checked, compared with itself and with an empty run, and
// written by the strict JSON writer), and as a --fail-on expression. The target aborts when an
// accepted document gives JSON the strict writer refuses or that is not valid UTF-8, or when an
// accepted expression holds an operator --fail-on does not define (docs/report.md).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <string_view>

#include "loupe/core/model/model.hpp"
#include "loupe/core/report/fail_on.hpp"
#include "loupe/core/report/findings_diff.hpp"
#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/strict_json.hpp"

namespace {

[[noreturn]] void fail(const char* what, const std::string& detail) {
  std::fprintf(stderr, "%s: %s\n", what, detail.c_str());
  std::abort();
}

void check_written(const loupe::core::FindingsDiff& diff) {
  const auto json = loupe::core::dump_strict_json(loupe::core::findings_diff_json(diff));
  if (!json.error.empty()) fail("the strict writer refused an accepted diff", json.error);
  if (const auto why = loupe::core::invalid_utf8_reason(json.text); !why.empty()) {
    fail("the diff's JSON is not UTF-8", why);
  }
  // Read back (Python semantics: NaN and Infinity would parse): every value must be strict.
  const auto reread = loupe::core::to_owned_json(*loupe::core::parse_json_document(json.text));
  if (const auto why = loupe::core::strict_json_problem(reread); !why.empty()) {
    fail("the diff's JSON does not read back strict", why);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace loupe::core;
  const std::string_view text(reinterpret_cast<const char*>(data), size);

  try {
    const loupe::Json doc = to_owned_json(*parse_json_document(text));
    if (findings_diff_input_problem(doc).empty()) {
      check_written(diff_findings(doc, doc, 10.0));
      loupe::Json empty = loupe::Json::object();
      empty["schema"] = std::string(kRunFindingsSchema);
      empty["findings"] = loupe::Json::array();
      check_written(diff_findings(empty, doc, 0.0));
      check_written(diff_findings(doc, empty, 0.0));
    }
  } catch (const std::exception&) {
    // Not JSON, or JSON nested too deep: diff-findings reports it as such.
  }

  try {
    for (const FailTerm& term : parse_fail_on(text)) {
      if (term.text.find_first_of("<>=!") != std::string::npos) {
        fail("an operator was read as part of a value", term.source);
      }
    }
  } catch (const FailOnError&) {
    // Refused with a message naming the term.
  }
  return 0;
}
