#include "loupe/core/report/fail_on.hpp"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>

#include "loupe/core/report/run_finding.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/python_format.hpp"
#include "report_text.hpp"

namespace loupe::core {

namespace {

std::string trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())) != 0) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())) != 0) s.remove_suffix(1);
  return std::string(s);
}

struct KeyName {
  const char* name;
  FailTerm::Key key;
};
constexpr KeyName kKeys[] = {
    {"savings", FailTerm::Key::Savings},   {"idle", FailTerm::Key::Idle},
    {"comm", FailTerm::Key::Comm},         {"total", FailTerm::Key::Total},
    {"findings", FailTerm::Key::Findings}, {"category", FailTerm::Key::Category},
    {"tier", FailTerm::Key::Tier}};

// Every message quotes what the user typed: control characters and invalid UTF-8 are escaped.
[[noreturn]] void refuse(const std::string& message) {
  throw FailOnError(escape_for_terminal(message));
}

constexpr const char* kOperatorChars = "<>=!";

struct OperatorName {
  std::string_view text;
  FailTerm::Op op;
};
constexpr OperatorName kOperators[] = {
    {">", FailTerm::Op::Greater}, {">=", FailTerm::Op::GreaterEqual},
    {"<", FailTerm::Op::Less},    {"<=", FailTerm::Op::LessEqual},
    {"=", FailTerm::Op::Equal},   {"!=", FailTerm::Op::NotEqual}};

FailTerm parse_term(const std::string& term) {
  FailTerm t;
  t.source = escape_for_terminal(term);
  size_t op_at = term.find_first_of("<>=!");
  if (op_at == std::string::npos || op_at == 0) {
    refuse("--fail-on: '" + term +
           "' is not KEY OP VALUE (keys: savings, idle, comm, total, findings, "
           "category, tier)");
  }
  const std::string key = trim(std::string_view(term).substr(0, op_at));
  bool known = false;
  for (const auto& k : kKeys) {
    if (key == k.name) {
      t.key = k.key;
      known = true;
    }
  }
  if (!known) {
    refuse("--fail-on: '" + term + "': unknown key '" + key +
           "' (keys: savings, idle, comm, total, findings, category, tier)");
  }
  // The operator is the whole run of comparison characters: `==`, `=>`, `<>`, `!` and the like
  // are refused, never read as an operator followed by a value starting with `=`.
  std::string_view rest = std::string_view(term).substr(op_at);
  const std::string op(rest.substr(0, rest.find_first_not_of(kOperatorChars)));
  rest.remove_prefix(op.size());
  bool known_op = false;
  for (const auto& o : kOperators) {
    if (op == o.text) {
      t.op = o.op;
      known_op = true;
    }
  }
  if (!known_op) {
    refuse("--fail-on: '" + term + "': '" + op +
           "' is not a comparison --fail-on knows (>, >=, <, <=, =, !=)");
  }
  std::string value = trim(rest);
  if (value.empty()) refuse("--fail-on: '" + term + "': no value after the comparison");
  if (const auto at = value.find_first_of(kOperatorChars); at == 0) {  // `> =5`, `= =gemm`
    refuse("--fail-on: '" + term + "': '" + op + " " + value.substr(0, 1) +
           "' is not a comparison --fail-on knows (>, >=, <, <=, =, !=)");
  } else if (at != std::string::npos) {  // `category=gemm=x`, `idle>5%<9%`
    refuse("--fail-on: '" + term + "': the value '" + value +
           "' holds a comparison character (one comparison per term; terms are separated by "
           "',')");
  }
  const bool textual = t.key == FailTerm::Key::Category || t.key == FailTerm::Key::Tier;
  const bool equality = t.op == FailTerm::Op::Equal || t.op == FailTerm::Op::NotEqual;
  if (textual != equality) {
    refuse("--fail-on: '" + term + "': " + key +
           (textual ? " takes = or !=" : " takes >, >=, < or <="));
  }
  if (textual) {
    if (t.key == FailTerm::Key::Tier && value != "compute" && value != "system") {
      refuse("--fail-on: '" + term + "': tier is compute or system");
    }
    t.text = value;
    return t;
  }
  if (value.size() > 1 && value.substr(value.size() - 2) == "ms") {
    t.unit = FailTerm::Unit::Ms;
    value = trim(std::string_view(value).substr(0, value.size() - 2));
  } else if (value.back() == '%') {
    t.unit = FailTerm::Unit::Percent;
    value = trim(std::string_view(value).substr(0, value.size() - 1));
  }
  double number = 0;
  if (!py::parse_float(value, number) || !std::isfinite(number)) {
    refuse("--fail-on: '" + term + "': '" + value + "' is not a number");
  }
  t.number = number;
  using K = FailTerm::Key;
  using U = FailTerm::Unit;
  const bool ok = (t.key == K::Savings && t.unit != U::None) ||
                  ((t.key == K::Idle || t.key == K::Comm) && t.unit != U::Ms) ||
                  (t.key == K::Total && t.unit != U::Percent) ||
                  (t.key == K::Findings && t.unit == U::None);
  if (!ok) {
    const char* want = t.key == K::Savings                      ? "savings needs ms or %"
                       : (t.key == K::Idle || t.key == K::Comm) ? "a share of GPU time, in %"
                       : t.key == K::Total                      ? "a time, in ms"
                                                                : "a count, without a unit";
    refuse("--fail-on: '" + term + "': " + want);
  }
  if ((t.key == K::Idle || t.key == K::Comm)) t.unit = U::Percent;
  if (t.key == K::Total) t.unit = U::Ms;
  return t;
}

using report_detail::fixed;

bool compare(double a, FailTerm::Op op, double b) {
  switch (op) {
    case FailTerm::Op::Greater:
      return a > b;
    case FailTerm::Op::GreaterEqual:
      return a >= b;
    case FailTerm::Op::Less:
      return a < b;
    case FailTerm::Op::LessEqual:
      return a <= b;
    default:
      return false;
  }
}

std::string describe(const RunFinding& f) {
  std::string s = "P" + (f.priority > 0 ? std::to_string(f.priority) : std::string("?")) + " " +
                  f.id + " (" + f.category + ") " + f.title;
  if (f.saving_ms) s += ": saving " + fixed(f.saving_ms->mid, 3) + " ms";
  if (f.saving_percent_mid()) s += " (" + fixed(*f.saving_percent_mid(), 2) + "% of E2E)";
  return s;
}

}  // namespace

std::vector<FailTerm> parse_fail_on(std::string_view expression) {
  std::vector<FailTerm> terms;
  size_t start = 0;
  const std::string expr(expression);
  while (start <= expr.size()) {
    const size_t comma = expr.find(',', start);
    const std::string term = trim(std::string_view(expr).substr(
        start, comma == std::string::npos ? std::string::npos : comma - start));
    if (term.empty()) {
      refuse("--fail-on: '" + expr + "' has an empty term");
    }
    terms.push_back(parse_term(term));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return terms;
}

std::vector<FailMatch> evaluate_fail_on(const std::vector<FailTerm>& terms, const RunFindings& doc,
                                        bool include_heuristic) {
  std::vector<FailMatch> matches;
  using K = FailTerm::Key;
  for (const auto& t : terms) {
    switch (t.key) {
      case K::Savings:
        for (const auto& f : doc.findings) {
          // A rule of thumb does not fail a build unless asked to.
          if (!include_heuristic && f.evidence == findings::Evidence::Heuristic) continue;
          const std::optional<double> v =
              t.unit == FailTerm::Unit::Ms
                  ? (f.saving_ms ? std::optional<double>(f.saving_ms->mid) : std::nullopt)
                  : f.saving_percent_mid();
          if (v && compare(*v, t.op, t.number)) matches.push_back({t.source, describe(f)});
        }
        break;
      case K::Idle:
      case K::Comm:
      case K::Total: {
        const char* key = t.key == K::Idle   ? "idle_time_percent"
                          : t.key == K::Comm ? "exposed_comm_time_percent"
                                             : "total_time_ms";
        const auto v = t.key == K::Idle   ? doc.idle_time_percent
                       : t.key == K::Comm ? doc.exposed_comm_time_percent
                                          : doc.total_time_ms;
        if (v && compare(*v, t.op, t.number)) {
          matches.push_back({t.source, std::string("run ") + key + " = " + fixed(*v, 3) +
                                           (t.key == K::Total ? " ms" : "%")});
        }
        break;
      }
      case K::Findings:
        if (compare(static_cast<double>(doc.findings.size()), t.op, t.number)) {
          matches.push_back({t.source, std::to_string(doc.findings.size()) + " findings"});
        }
        break;
      case K::Category:
      case K::Tier:
        for (const auto& f : doc.findings) {
          const std::string& v = t.key == K::Category ? f.category : f.tier;
          if ((v == t.text) == (t.op == FailTerm::Op::Equal)) {
            matches.push_back({t.source, describe(f)});
          }
        }
        break;
    }
  }
  return matches;
}

}  // namespace loupe::core
