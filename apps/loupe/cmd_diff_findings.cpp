#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

#include "cli_common.hpp"
#include "loupe/core/model/model.hpp"
#include "loupe/core/report/findings_diff.hpp"
#include "loupe/core/report/run_findings.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/strict_json.hpp"
#include "loupe/core/util/text_escape.hpp"

namespace loupe::cli {

namespace {

namespace fs = std::filesystem;

// A findings.json, or a run directory holding one. Prints the problem and returns false.
bool load(const std::string& argument, const char* which, Json& out) {
  fs::path path = argument;
  std::error_code ec;
  if (fs::is_directory(path, ec)) path /= core::kRunFindingsFile;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::cerr << "loupe diff-findings: " << which << ": cannot read "
              << core::escape_for_terminal(path.string())
              << (fs::exists(path, ec) ? ""
                                       : " (no such file; give a findings.json or the -o "
                                         "directory of a loupe analyze run)")
              << "\n";
    return false;
  }
  std::ostringstream text;
  text << in.rdbuf();
  try {
    out = core::to_owned_json(*core::parse_json_document(text.str()));
  } catch (const std::exception& e) {
    std::cerr << "loupe diff-findings: " << which << ": "
              << core::escape_for_terminal(path.string()) << " is not JSON: " << e.what() << "\n";
    return false;
  }
  // Checked before any work: what the diff compares and prints must be valid text and numbers.
  if (const std::string why = core::findings_diff_input_problem(out); !why.empty()) {
    std::cerr << "loupe diff-findings: " << which << " " << why << " ("
              << core::escape_for_terminal(path.string()) << ")\n";
    return false;
  }
  return true;
}

std::string ms(const std::optional<double>& v) {
  if (!v) return "not quantified";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f ms", *v);
  return buf;
}

void print_list(const char* heading, const std::vector<core::FindingChange>& changes, bool grew) {
  std::cout << heading << " (" << changes.size() << ")\n";
  for (const auto& c : changes) {
    // Every field comes from a file: each is printed with terminal escapes neutralised.
    std::cout << "  " << core::escape_for_terminal(c.id) << "\t"
              << core::escape_for_terminal(c.category) << "\t";
    if (grew) {
      std::cout << ms(c.old_saving_ms) << " -> " << ms(c.new_saving_ms);
    } else {
      std::cout << ms(c.new_saving_ms ? c.new_saving_ms : c.old_saving_ms);
    }
    std::cout << "\t" << core::escape_for_terminal(c.title) << "\n";
  }
}

}  // namespace

int run_diff_findings(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe diff-findings OLD NEW [--json] [--grow-threshold PCT] "
      "[--fail-on-regression]\n\n"
      "Compares two runs' findings (each a findings.json, or the -o directory of a loupe\n"
      "analyze run) by the findings' stable ids, and lists the findings that appeared in NEW,\n"
      "vanished from OLD, and grew (mid saving up by more than PCT % of its old value).\n"
      "Exit 0; 2 for an unreadable input; with --fail-on-regression, 3 when a finding\n"
      "appeared or grew.\n\n"
      "Options");
  visible.add_options()("help,h", "show this help")(
      "json", R"(print {"appeared": [...], "vanished": [...], "grew": [...], "unchanged": N})")(
      "grow-threshold", po::value<double>()->default_value(10.0),
      "percent by which a mid saving must rise to count as grown")(
      "fail-on-regression", "exit 3 when a finding appeared or grew");
  po::options_description hidden;
  hidden.add_options()("old", po::value<std::string>(), "old run")("new", po::value<std::string>(),
                                                                   "new run");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("old", 1).add("new", 1);
  po::variables_map vm;
  if (!parse_arguments(args, all, positional, vm, "diff-findings")) return kExitUsage;
  if (vm.count("help") > 0) {
    std::cout << visible << "\n";
    return kExitOk;
  }
  if (vm.count("old") == 0 || vm.count("new") == 0) {
    std::cerr << "loupe diff-findings: give OLD and NEW (findings.json files or run "
                 "directories)\n";
    return kExitUsage;
  }
  const double threshold = vm["grow-threshold"].as<double>();
  if (!(threshold >= 0)) {
    std::cerr << "loupe diff-findings: --grow-threshold must be a percentage >= 0\n";
    return kExitUsage;
  }
  Json old_doc;
  Json new_doc;
  if (!load(vm["old"].as<std::string>(), "OLD", old_doc) ||
      !load(vm["new"].as<std::string>(), "NEW", new_doc)) {
    return kExitUsage;
  }
  core::FindingsDiff diff;
  try {
    diff = core::diff_findings(old_doc, new_doc, threshold);
  } catch (const std::invalid_argument& e) {
    std::cerr << "loupe diff-findings: " << e.what() << "\n";
    return kExitUsage;
  }
  if (vm.count("json") > 0) {
    const core::StrictJson json = core::dump_strict_json(core::findings_diff_json(diff), 2);
    if (!json.error.empty()) {  // not reached: the inputs were checked when loaded
      std::cerr << "loupe diff-findings: cannot write JSON: "
                << core::escape_for_terminal(json.error) << "\n";
      return kExitUsage;
    }
    std::cout << json.text << "\n";
  } else {
    print_list("Appeared", diff.appeared, false);
    print_list("Vanished", diff.vanished, false);
    print_list("Grew", diff.grew, true);
    std::cout << "Unchanged: " << diff.unchanged << "\n";
  }
  const bool regressed = !diff.appeared.empty() || !diff.grew.empty();
  return vm.count("fail-on-regression") > 0 && regressed ? kExitGate : kExitOk;
}

}  // namespace loupe::cli
