// loupe: runs analyzer plugins over a TraceLens-style analysis directory and writes validated
// findings. See `loupe --help`.
#include <iostream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "huge_pages.hpp"
#include "malloc_arenas.hpp"
#include "loupe/abi.h"
#include "loupe/core/util/closest_name.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/version.hpp"

namespace {

constexpr const char* kUsage = R"(Usage: loupe <command> [options]

Turns a PyTorch profiler trace, or a TraceLens-style analysis directory (perf_report_csvs/,
category_data/, metadata/), into validated, prioritized performance findings, using analyzer
plugins.

Commands:
  analyze --trace TRACE -o OUT
                  read a raw trace (.json/.json.gz), write its analysis directory into OUT,
                  then analyze it (--trace2 TRACE2: compare two traces)
  analyze DIR     run every plugin whose categories DIR's manifest lists; write
                  category_data/<cat>_metrics.json, system_findings/ and category_findings/
                  markdown, loupe_run.json, and the run's report (priority_data.json,
                  findings.json, analysis.md, metadata/model_info.json)
  diff-findings OLD NEW
                  findings that appeared, vanished or grew between two runs (by stable id)
  inspect TRACE   summarize a PyTorch profiler trace (.json/.json.gz) read natively
  plugins         list the plugins found (and every rejected file with its reason)
  validate FILE   check a findings markdown file like TraceLens's validator does
  validate --report DIR
                  check DIR/analysis.md like TraceLens's validate_report does
  what-if TRACE [--scale SELECTOR=FACTOR ...]
                  predicted step time if some GPU ops took another time, and the critical
                  path (GPU compute, communication, memcpy, launch overhead / host work, sync)
  help [COMMAND]  show this text, or the help of COMMAND

Options:
  -h, --help      show help (also `loupe <command> --help`)
  --version       print the Loupe version and plugin ABI version

Exit codes:
  0  success (every category OK or NO_DATA; a valid findings file or report)
  1  a category ended in ERROR; an invalid findings file or report
  2  bad usage, or an input that cannot be read (what-if: an unknown selector)
  3  analyze --fail-on matched; diff-findings --fail-on-regression found a regression

Plugins are searched next to the loupe executable (the bundled ones), then in --plugin-dir
directories, then the configuration file's plugin_dirs, then $LOUPE_PLUGIN_PATH (':'-separated);
the first plugin found for a name or a category keeps it, unless --prefer PLUGIN[:CATEGORY,...]
or the configuration file ($XDG_CONFIG_HOME/loupe/config.json, --config FILE) makes a later one
the primary. `loupe plugins` lists what was found.
)";

int dispatch(const std::string& command, const std::vector<std::string>& rest) {
  try {
    if (command == "analyze") return loupe::cli::run_analyze(rest);
    if (command == "inspect") return loupe::cli::run_inspect(rest);
    if (command == "plugins") return loupe::cli::run_plugins(rest);
    if (command == "validate") return loupe::cli::run_validate(rest);
    if (command == "diff-findings") return loupe::cli::run_diff_findings(rest);
    if (command == "what-if") return loupe::cli::run_what_if(rest);
  } catch (const std::exception& e) {
    std::cerr << "loupe " << command << ": internal error: " << e.what() << "\n";
    return loupe::cli::kExitUsage;
  }
  std::cerr << "loupe: unknown command '" << loupe::core::escape_for_terminal(command) << "'";
  if (const auto near = loupe::core::closest_name(
          command, {"analyze", "diff-findings", "help", "inspect", "plugins", "validate"})) {
    std::cerr << " (did you mean '" << *near << "'?)";
  }
  std::cerr << "\n\n" << kUsage;
  return loupe::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  loupe::cli::reexec_with_huge_pages(argc, argv);
  loupe::cli::use_one_malloc_arena();
  const std::vector<std::string> all(argv + 1, argv + argc);
  if (all.empty()) {
    std::cerr << kUsage;
    return loupe::cli::kExitUsage;
  }
  const std::string& command = all.front();
  const std::vector<std::string> rest(all.begin() + 1, all.end());
  if (command == "help" && rest.size() == 1 && rest.front() != "help") {
    return dispatch(rest.front(), {"--help"});
  }
  if (command == "-h" || command == "--help" || command == "help") {
    std::cout << kUsage;
    return loupe::cli::kExitOk;
  }
  if (command == "--version") {
    std::cout << "loupe " << loupe::core::kLoupeVersion << " (plugin ABI " << LOUPE_ABI_MAJOR << "."
              << LOUPE_ABI_MINOR << ")\n";
    return loupe::cli::kExitOk;
  }
  return dispatch(command, rest);
}
