// `loupe analyze --fail-on EXPR`: conditions on the run's findings.json that make a CI job fail
// (docs/report.md, "Gating a CI job"). EXPR is comma-separated terms; the gate trips when any
// term matches:
//   savings>5%   savings>=2ms   a finding whose mid saving exceeds 5 % of E2E / 2 ms
//   idle>30%     comm>10%       the run's GPU idle / exposed-communication share
//   total>100ms                 the run's GPU time
//   findings>0                  the number of findings
//   category=gemm  tier=system  a finding of that category / tier
// Numeric terms take >, >=, < or <=; category and tier take = or !=.
#pragma once

#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/report/run_finding.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

class FailOnError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct FailTerm {
  enum class Key { Savings, Idle, Comm, Total, Findings, Category, Tier };
  enum class Op { Greater, GreaterEqual, Less, LessEqual, Equal, NotEqual };
  enum class Unit { None, Ms, Percent };
  Key key = Key::Savings;
  Op op = Op::Greater;
  Unit unit = Unit::None;
  double number = 0.0;
  std::string text;    // category / tier value
  std::string source;  // the term as written
};

struct FailMatch {
  std::string term;  // the term as written
  std::string what;  // what matched, for the log
};

// Throws FailOnError naming the term that cannot be read and why.
std::vector<FailTerm> parse_fail_on(std::string_view expression);

// Every (term, finding or run fact) that matches, in term order then finding order.
// `savings` terms read measured and modeled savings only; with `include_heuristic`
// (`--fail-on-heuristic`) also the heuristic ones (docs/report.md, "--fail-on").
std::vector<FailMatch> evaluate_fail_on(const std::vector<FailTerm>& terms,
                                        const RunFindings& run_findings,
                                        bool include_heuristic = false);

}  // namespace loupe::core
