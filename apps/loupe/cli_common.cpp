#include "cli_common.hpp"

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <set>

#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include "loupe/core/trace/input_format.hpp"
#include "loupe/core/util/closest_name.hpp"
#include "loupe/core/util/text_escape.hpp"

namespace loupe::cli {

void add_verbosity_options(po::options_description& options) {
  options.add_options()("verbose,v", "more log output (debug level)")(
      "quiet,q",
      "only warnings and errors: no progress, and `analyze` prints no summary (the files and the "
      "exit code say everything; --fail-on matches are still printed)");
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

namespace {

// The long option of `options` closest to the mistyped `given` ("--platfrom"), leaving out the
// positional arguments' names and internal options, which a user never types.
std::optional<std::string> closest_option(const std::string& given,
                                          const po::options_description& options,
                                          const po::positional_options_description& positional) {
  if (given.rfind("--", 0) != 0) return std::nullopt;
  std::string name = given.substr(2);
  name = name.substr(0, name.find('='));
  std::set<std::string> positional_names;
  const unsigned positions = std::min(positional.max_total_count(), 16u);
  for (unsigned i = 0; i < positions; ++i) positional_names.insert(positional.name_for_position(i));
  std::vector<std::string> names;
  for (const auto& option : options.options()) {
    const std::string& long_name = option->long_name();
    if (long_name.empty() || positional_names.count(long_name) > 0) continue;
    if (option->description() == "internal") continue;
    names.push_back(long_name);
  }
  return core::closest_name(name, names);
}

}  // namespace

bool parse_arguments(const std::vector<std::string>& args, const po::options_description& visible,
                     const po::positional_options_description& positional, po::variables_map& vm,
                     const std::string& command) {
  try {
    po::store(po::command_line_parser(args).options(visible).positional(positional).run(), vm);
    if (vm.count("help") > 0) return true;
    po::notify(vm);
    return true;
  } catch (const po::unknown_option& e) {
    std::cerr << "loupe " << command << ": " << core::escape_for_terminal(e.what());
    if (const auto near = closest_option(e.get_option_name(), visible, positional)) {
      std::cerr << " (did you mean --" << *near << "?)";
    }
    std::cerr << "\nTry 'loupe " << command << " --help'.\n";
    return false;
  } catch (const po::error& e) {
    std::cerr << "loupe " << command << ": " << core::escape_for_terminal(e.what()) << "\n"
              << "Try 'loupe " << command << " --help'.\n";
    return false;
  }
}

std::optional<int> parse_trace_command(const std::vector<std::string>& args,
                                       po::options_description& visible, po::variables_map& vm,
                                       const std::string& command) {
  add_verbosity_options(visible);
  po::options_description hidden;
  hidden.add_options()("trace", po::value<std::string>(), "trace file");
  po::options_description all;
  all.add(visible).add(hidden);
  po::positional_options_description positional;
  positional.add("trace", 1);
  if (!parse_arguments(args, all, positional, vm, command)) return kExitUsage;
  if (vm.count("help") > 0) {
    std::cout << visible << "\n";
    return kExitOk;
  }
  apply_verbosity(vm);
  if (vm.count("trace") == 0) {
    std::cerr << "loupe " << command << ": missing TRACE (a .json or .json.gz profiler trace)\n";
    return kExitUsage;
  }
  return std::nullopt;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::function<void(std::uint64_t, std::uint64_t)> trace_load_progress(const std::string& command,
                                                                      std::uint64_t file_size,
                                                                      bool quiet) {
  constexpr std::uint64_t kProgressThreshold = 64u << 20;  // report progress above this size
  if (quiet || file_size < kProgressThreshold) return {};
  return [command, file_size](std::uint64_t json_bytes, std::uint64_t input_bytes) {
    std::cerr << "loupe " << command << ": read " << json_bytes / 1000000 << " MB of JSON ("
              << input_bytes * 100 / file_size << "% of the file)\n";
  };
}

namespace fs = std::filesystem;

bool check_readable_file(const fs::path& path, const char* option) {
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    std::cerr << "loupe analyze: " << option << " " << path.string() << ": no such file\n";
    return false;
  }
  if (!fs::is_regular_file(status)) {
    std::cerr << "loupe analyze: " << option << " " << path.string() << ": not a regular file\n";
    return false;
  }
  std::ifstream probe(path, std::ios::binary);
  if (!probe) {
    std::cerr << "loupe analyze: " << option << " " << path.string() << ": cannot be read\n";
    return false;
  }
  return true;
}

bool check_trace_format(const fs::path& path, const char* option, const std::string& command) {
  core::trace::InputFormatInfo info;
  try {
    info = core::trace::identify_input_file(path);
  } catch (const std::exception& e) {
    std::cerr << "loupe " << command << ": " << e.what() << "\n";
    return false;
  }
  if (info.readable()) return true;
  std::cerr << "loupe " << command << ": " << option << (*option != '\0' ? " " : "")
            << path.string() << ": " << core::trace::unsupported_input_message(info) << "\n";
  return false;
}

// "" when files can be written into `dir` (which may not exist yet); else why not. Creates
// nothing that stays: a probe file (or, for a missing directory, a probe directory in its
// nearest existing parent) is made and removed at once.
std::string check_writable_dir(const fs::path& dir) {
  std::error_code ec;
  fs::path existing = fs::absolute(dir, ec);
  while (!existing.empty() && !fs::exists(existing, ec)) {
    if (existing == existing.parent_path()) break;
    existing = existing.parent_path();
  }
  if (!fs::is_directory(existing, ec)) {
    return existing == fs::absolute(dir, ec) ? "not a directory"
                                             : existing.string() + " is not a directory";
  }
  const fs::path probe = existing / (".loupe-write-check-" + std::to_string(::getpid()));
  if (!fs::create_directory(probe, ec) || ec) {
    return "permission denied (cannot create files in " + existing.string() + ")";
  }
  fs::remove(probe, ec);
  return {};
}

}  // namespace loupe::cli
