#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>

#include <rapidjson/document.h>

#include "cli_common.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/validate/validator.hpp"

namespace loupe::cli {

namespace {

// The text verdict with what its errors quote from the validated file (control characters,
// bytes that are not UTF-8) escaped for the terminal, line by line.
std::string for_terminal(const std::string& text) {
  std::string out;
  for (std::size_t start = 0; start < text.size();) {
    const std::size_t end = text.find('\n', start);
    out += core::escape_for_terminal(text.substr(start, end - start));
    if (end == std::string::npos) break;
    out += '\n';
    start = end + 1;
  }
  return out;
}

std::optional<core::Scope> parse_scope(const std::string& text) {
  if (text == "standalone") return core::Scope::Standalone;
  if (text == "comparative") return core::Scope::Comparative;
  return std::nullopt;
}

// The analysis directory's own comparison_scope (category_data/category_manifest.json), if any.
std::optional<core::Scope> manifest_scope(const std::filesystem::path& dir) {
  std::ifstream in(dir / "category_data" / "category_manifest.json", std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseNanAndInfFlag>(text.str().c_str());
  if (doc.HasParseError() || !doc.IsObject()) return std::nullopt;
  const auto it = doc.FindMember("comparison_scope");
  if (it == doc.MemberEnd() || !it->value.IsString()) return std::nullopt;
  return parse_scope(it->value.GetString());
}

}  // namespace

int run_validate(const std::vector<std::string>& args) {
  po::options_description visible(
      "Usage: loupe validate FILE --tier compute|system|fusion [--scope standalone|comparative]\n"
      "       loupe validate --report DIR [--scope standalone|comparative]\n\n"
      "Checks a findings markdown file the way TraceLens's validate_findings_file does, and\n"
      "prints `PASS: Findings file is valid` (exit 0) or `FAIL:` and one `  - <error>` line per\n"
      "error (exit 1). Compute-tier files are checked against\n"
      "<FILE>/../../category_data/<cat>_metrics.json when it exists. Exit 2: unreadable file.\n\n"
      "With --report, checks DIR/analysis.md the way TraceLens's validate_report does: required\n"
      "sections, the metrics table, placeholders, Args cells against\n"
      "DIR/category_data/*_metrics.json, the kernel-fusion Impact format, P-items and Top\n"
      "Operations against DIR/priority_data.json, reasoning-candidate markers and impact\n"
      "markers. Prints `PASS: Report is valid` or `FAIL:` and the errors. Without --scope the\n"
      "scope is DIR's manifest comparison_scope (what TraceLens's orchestrator passes); without\n"
      "either it is TraceLens's default, None, which checks fusion Impact lines the comparative\n"
      "way.\n\n"
      "Options");
  visible.add_options()("help,h", "show this help")(
      "tier", po::value<std::string>(),
      "compute | system | fusion (case-sensitive, like TraceLens); findings files only")(
      "report", po::value<std::string>(), "check DIR/analysis.md instead of a findings file")(
      "scope", po::value<std::string>(), "standalone | comparative (findings default: standalone)")(
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
  std::optional<core::Scope> scope;
  if (vm.count("scope") > 0) {
    scope = parse_scope(vm["scope"].as<std::string>());
    if (!scope) {
      std::cerr << "loupe validate: --scope accepts 'standalone' or 'comparative', not '"
                << vm["scope"].as<std::string>() << "'\n";
      return kExitUsage;
    }
  }
  auto mode = core::ValidationMode::Default;
  if (vm.count("compat") > 0) {
    if (vm["compat"].as<std::string>() != "tracelens") {
      std::cerr << "loupe validate: --compat accepts only 'tracelens'\n";
      return kExitUsage;
    }
    mode = core::ValidationMode::TraceLens;
  }
  const bool json = vm.count("json") > 0;

  if (vm.count("report") > 0) {
    if (vm.count("file") > 0 || vm.count("tier") > 0) {
      std::cerr << "loupe validate: --report DIR takes no FILE and no --tier\n";
      return kExitUsage;
    }
    const std::filesystem::path dir = vm["report"].as<std::string>();
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec)) {
      std::cerr << "loupe validate: --report: " << dir.string() << " is not a directory\n";
      return kExitUsage;
    }
    if (!scope) scope = manifest_scope(dir);
    const auto result = core::validate_report(dir, scope);
    if (json) {
      std::cout << core::format_validation_json(result) << "\n";
    } else if (result.passed) {
      std::cout << "PASS: Report is valid\n";
    } else {
      std::cout << for_terminal(core::format_validation_text(result));
    }
    if (result.io_error) return kExitUsage;
    return result.passed ? kExitOk : kExitFindings;
  }

  if (vm.count("file") == 0) {
    std::cerr << "loupe validate: missing FILE (or --report DIR)\n";
    return kExitUsage;
  }
  if (vm.count("tier") == 0) {
    std::cerr << "loupe validate: the option '--tier' is required for a findings file\n";
    return kExitUsage;
  }
  const auto result =
      core::validate_findings_file(vm["file"].as<std::string>(), vm["tier"].as<std::string>(),
                                   scope.value_or(core::Scope::Standalone), mode);
  std::cout << (json ? core::format_validation_json(result) + "\n"
                     : for_terminal(core::format_validation_text(result)));
  if (result.io_error) return kExitUsage;
  return result.passed ? kExitOk : kExitFindings;
}

}  // namespace loupe::cli
