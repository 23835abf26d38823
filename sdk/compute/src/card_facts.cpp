#include "loupe/compute/card_facts.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <vector>

#include "loupe/compute/json_fields.hpp"
#include "loupe/findings.hpp"
#include "loupe/python_format.hpp"

namespace loupe::compute {

namespace {

std::string text(const Json& v) { return v.is_string() ? v.as_string() : std::string(); }

std::string replace_all(std::string s, std::string_view from, std::string_view to) {
  for (size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size())) {
    s.replace(pos, from.size(), to);
  }
  return s;
}

// "Kernel 1: a<br>Kernel 2: b" -> "a, b"; count = the number of kernels.
std::string kernel_list(const std::string& names, size_t& count) {
  std::string out;
  count = 0;
  size_t start = 0;
  while (start <= names.size()) {
    size_t end = names.find("<br>", start);
    if (end == std::string::npos) end = names.size();
    std::string item = names.substr(start, end - start);
    if (item.rfind("Kernel ", 0) == 0) {
      const size_t colon = item.find(": ");
      if (colon != std::string::npos) item = item.substr(colon + 2);
    }
    if (!item.empty()) {
      out += (out.empty() ? "" : ", ") + replace_all(item, "`", "'");
      ++count;
    }
    start = end + 4;
  }
  return out;
}

}  // namespace

const Json* dominant_operation(const FindingContext& f) {
  for (const Json* op : f.operations) {
    if (op != nullptr) return op;
  }
  return nullptr;
}

std::string member_facts(const FindingContext& f, size_t member) {
  const Json& members = field(&f.finding, "members");
  if (!members.is_array() || member >= members.size()) return {};
  const Json& m = members.as_array()[member];
  const Json* op = member < f.operations.size() ? f.operations[member] : nullptr;
  std::string name = text(field(&m, "operation"));
  std::string out = "`" + name + "`";
  size_t kernel_count = 0;
  const std::string kernels = kernel_list(text(field(op, "kernel_name_trunc")), kernel_count);
  std::string library = text(field(op, "library"));
  if (library.empty()) library = "not detected";
  {
    out += " (";
    if (!kernels.empty()) {
      out += (kernel_count == 1 ? "kernel " : "kernels ") + kernels;
    }
    if (!kernels.empty() && !library.empty()) out += ", ";
    if (!library.empty()) out += "library " + library;
    out += ")";
  }
  const Json& time = field(&m, "time_ms");
  out += " takes " +
         (time.is_number() ? py::fixed(time.as_double(), 3) : std::string("an unknown")) +
         " ms of measured kernel time";
  const Json& count = field(op, "count");
  if (count.is_int()) {
    out += " over " + std::to_string(count.as_int()) + (count.as_int() == 1 ? " call" : " calls");
  }
  const Json& eff = field(op, "efficiency");
  if (f.comparative) {
    const Json& t2 = field(op, "t2_time_ms");
    if (t2.is_number()) out += " versus " + py::fixed(t2.as_double(), 3) + " ms in Trace 2";
  } else if (text(field(&f.finding, "estimate_method")) == "heuristic") {
    out += ", with no performance model (efficiency and bound type unknown)";
  } else {
    const Json& pct = field(&m, "efficiency_pct");
    const std::string bound = text(field(&eff, "bound_type"));
    if (pct.is_number()) {
      out += " at " + fixed2(pct.as_double()) + "% of the ";
      if (bound == "compute") {
        out += jnum(field(&eff, "resolved_peak_maf")) + " TFLOPS roofline";
      } else if (bound == "memory") {
        out += jnum(field(&eff, "resolved_peak_hbm_bw")) + " TB/s roofline";
      } else {
        out += "roofline";
      }
    }
    if (!bound.empty()) out += ", " + bound + "-bound";
  }
  return findings::inline_text(out);
}

std::string members_facts(const FindingContext& f, size_t max_members) {
  const Json& members = field(&f.finding, "members");
  if (!members.is_array()) return {};
  std::string out;
  double rest_ms = 0.0;
  size_t rest = 0;
  for (size_t i = 0; i < members.size(); ++i) {
    if (i >= max_members) {
      const Json& t = field(&members.as_array()[i], "time_ms");
      if (t.is_number() && !std::isnan(t.as_double())) rest_ms += t.as_double();
      ++rest;
      continue;
    }
    out += (out.empty() ? "" : "; ") + member_facts(f, i);
  }
  if (rest > 0) {
    out += "; and " + std::to_string(rest) + " more operation" + (rest == 1 ? "" : "s") + " (" +
           py::fixed(rest_ms, 3) + " ms)";
  }
  return out;
}

std::string member_names(const FindingContext& f, size_t max_names) {
  std::vector<std::string> names;
  const Json& members = field(&f.finding, "members");
  if (members.is_array()) {
    for (const auto& m : members.as_array()) {
      const std::string name = text(field(&m, "operation"));
      if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(name);
    }
  }
  std::string out;
  const size_t shown = std::min(names.size(), max_names);
  for (size_t i = 0; i < shown; ++i) {
    if (i > 0) out += (i + 1 == shown && names.size() <= max_names) ? " and " : ", ";
    out += "`" + replace_all(names[i], "`", "'") + "`";
  }
  if (names.size() > max_names) {
    out += " and " + std::to_string(names.size() - max_names) + " more";
  }
  return findings::inline_text(out);
}

long long max_member_count(const FindingContext& f) {
  long long best = 0;
  for (const Json* op : f.operations) {
    const Json& c = field(op, "count");
    if (c.is_int()) best = std::max(best, static_cast<long long>(c.as_int()));
  }
  return best;
}

std::string op_base_name(std::string_view op_name) {
  const size_t colon = op_name.rfind("::");
  std::string base(colon == std::string_view::npos ? op_name : op_name.substr(colon + 2));
  while (!base.empty() && base.back() == '_') base.pop_back();
  for (auto& c : base) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return base;
}

std::vector<std::string> member_labels(const FindingContext& f,
                                       const std::function<std::string(std::string_view)>& classify,
                                       const std::vector<std::string>& order) {
  std::vector<std::string> found;
  const Json& members = field(&f.finding, "members");
  if (members.is_array()) {
    for (const auto& m : members.as_array())
      found.push_back(classify(text(field(&m, "operation"))));
  }
  std::vector<std::string> out;
  for (const auto& label : order) {
    if (std::find(found.begin(), found.end(), label) != found.end()) out.push_back(label);
  }
  return out;
}

std::string MeasuredProse::insight(const FindingContext& f) const {
  if (!measured_) return FindingsProse::insight(f);
  return members_facts(f) + ".";
}

}  // namespace loupe::compute
