#include <iostream>

#include "cli_common.hpp"
#include "loupe/core/validator.hpp"

namespace loupe::cli {

int run_validate(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe validate FILE --tier compute|system|fusion [--scope standalone|comparative]\n\n"
      "Checks a findings markdown file the way TraceLens's validate_findings_file does, and\n"
      "prints `PASS: Findings file is valid` (exit 0) or `FAIL:` and one `  - <error>` line per\n"
      "error (exit 1). Compute-tier files are checked against\n"
      "<FILE>/../../category_data/<cat>_metrics.json when it exists. Exit 2: unreadable file.\n\n"
      "Options");
  visible.add_options()("help,h", "show this help")(
      "tier", po::value<std::string>()->required(),
      "compute | system | fusion (case-sensitive, like TraceLens)")(
      "scope", po::value<std::string>()->default_value("standalone"), "standalone | comparative")(
      "compat", po::value<std::string>(), "tracelens: also reject what TraceLens wrongly rejects")(
      "json", R"(print {"passed": ..., "errors": [...]} instead of text)");
  po::options_description hidden;
  hidden.add_options()("file", po::value<std::string>(), "findings file");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  if (!parse_arguments(args, all, positional, vm, "validate")) return kExitUsage;
  if (vm.count("help") > 0) {
    std::cout << visible << "\n";
    return kExitOk;
  }
  if (vm.count("file") == 0) {
    std::cerr << "loupe validate: missing FILE\n";
    return kExitUsage;
  }
  const std::string scope_text = vm["scope"].as<std::string>();
  const auto scope =
      scope_text == "comparative" ? core::Scope::Comparative : core::Scope::Standalone;
  auto mode = core::ValidationMode::Default;
  if (vm.count("compat") > 0) {
    if (vm["compat"].as<std::string>() != "tracelens") {
      std::cerr << "loupe validate: --compat accepts only 'tracelens'\n";
      return kExitUsage;
    }
    mode = core::ValidationMode::TraceLens;
  }
  const auto result = core::validate_findings_file(vm["file"].as<std::string>(),
                                                   vm["tier"].as<std::string>(), scope, mode);
  std::cout << (vm.count("json") > 0 ? core::format_validation_json(result) + "\n"
                                     : core::format_validation_text(result));
  if (result.io_error) return kExitUsage;
  return result.passed ? kExitOk : kExitFindings;
}

}  // namespace loupe::cli
