// Builds the compute-tier findings document from a metrics document: one card and one detail
// block per category_findings[] entry, with the 10-column Data table (standalone) or the
// comparative table, the heuristic warning, and the empty / NO_DATA / ERROR forms. Prose comes
// from a FindingsProse object: the defaults are op-family neutral; a category plugin overrides
// the parts it knows more about.
#pragma once

#include <string>
#include <vector>

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::compute {

// A number exactly as it is printed in the metrics JSON (Python repr), "true"/"false", text
// as-is; "—" for null.
std::string jnum(const Json& value);
// Python format(v, ".2f").
std::string fixed2(double value);

// One finding with its members joined to operations[] (spec: name, time, library, efficiency).
struct FindingContext {
  const Json& metrics;
  const Json& finding;
  size_t index = 0;                     // 0-based position in rank order
  std::vector<const Json*> operations;  // one per member, same order (nullptr if not found)
  bool comparative = false;

  bool heuristic() const;
  std::string bound_type() const;  // compute | memory | unknown | unmodeled
  std::string library() const;
  long long member_count() const;
  // Summaries used by the prose.
  double min_efficiency() const;
  double max_efficiency() const;
  std::string total_time_ms() const;      // jnum(PyRound(sum member time_ms, 3))
  std::string total_e2e_percent() const;  // jnum(PyRound(sum op percent_of_total, 2)) or "—"
  const Json* category_specific(std::string_view key) const;
};

class FindingsProse {
 public:
  virtual ~FindingsProse() = default;

  // "Forward convolutions (conv_fwd)".
  virtual std::string document_title(const std::string& category) const;
  // Noun for one operation signature, e.g. "convolution" ("operation" by default).
  virtual std::string noun() const { return "operation"; }
  virtual std::vector<std::string> overview(const Json& metrics) const;
  virtual std::string no_data_message() const;

  virtual std::string title(const FindingContext& f) const;
  virtual std::string insight(const FindingContext& f) const;
  virtual std::string action(const FindingContext& f) const;
  virtual std::string identification(const FindingContext& f) const;
  virtual std::string reasoning(const FindingContext& f) const;
  virtual std::string resolution(const FindingContext& f) const;

  // Hooks used by the default prose.
  // Distinct labels of the members ("Standard 2D, Depthwise"); empty when not classified.
  virtual std::vector<std::string> member_types(const FindingContext&) const { return {}; }
  // Category expectations appended to the reasoning of a quantified standalone finding.
  virtual std::vector<std::string> expectation_sentences(const FindingContext&) const { return {}; }
  // Extra identification sentences (after backend and model layer).
  virtual std::vector<std::string> identification_extras(const FindingContext&) const { return {}; }
  // Extra reasoning sentences (after the expectations and the occupancy fallback).
  virtual std::vector<std::string> reasoning_extras(const FindingContext&) const { return {}; }
};

// The findings document for a metrics document of status OK (cards + details) or NO_DATA.
findings::Document build_compute_findings(const Json& metrics, const std::string& category,
                                          bool comparative, const FindingsProse& prose);

// An ERROR findings document carrying the message.
findings::Document build_error_findings(const std::string& category, bool comparative,
                                        const FindingsProse& prose, const std::string& message);

}  // namespace loupe::compute
