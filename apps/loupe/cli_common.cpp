#include "cli_common.hpp"

#include <iostream>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

namespace loupe::cli {

void add_verbosity_options(po::options_description& options) {
  options.add_options()("verbose,v", "more log output (debug level)")("quiet,q",
                                                                      "only warnings and errors");
}

void apply_verbosity(const po::variables_map& vm) {
  auto logger = spdlog::stderr_color_mt("loupe");
  logger->set_pattern("loupe: %^%l%$: %v");
  spdlog::set_default_logger(logger);
  if (vm.count("verbose") > 0) {
    spdlog::set_level(spdlog::level::debug);
  } else if (vm.count("quiet") > 0) {
    spdlog::set_level(spdlog::level::warn);
  } else {
    spdlog::set_level(spdlog::level::info);
  }
}

bool parse_arguments(const std::vector<std::string>& args, const po::options_description& visible,
                     const po::positional_options_description& positional, po::variables_map& vm,
                     const std::string& command) {
  try {
    po::store(po::command_line_parser(args).options(visible).positional(positional).run(), vm);
    if (vm.count("help") > 0) return true;
    po::notify(vm);
    return true;
  } catch (const po::error& e) {
    std::cerr << "loupe " << command << ": " << e.what() << "\n"
              << "Try 'loupe " << command << " --help'.\n";
    return false;
  }
}

}  // namespace loupe::cli
