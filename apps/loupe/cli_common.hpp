// Shared pieces of the `loupe` subcommands: exit codes, logging setup, option helpers.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <boost/program_options.hpp>

namespace loupe::cli {

namespace po = boost::program_options;

// Exit codes, documented in `loupe --help`.
inline constexpr int kExitOk = 0;        // every category OK or NO_DATA / file valid
inline constexpr int kExitFindings = 1;  // a category ended in ERROR / file invalid
inline constexpr int kExitUsage = 2;     // bad usage or unreadable input
inline constexpr int kExitGate = 3;      // analyze --fail-on matched / diff-findings regressed

// -v / -q handling: adds the options and applies them to spdlog.
void add_verbosity_options(po::options_description& options);
void apply_verbosity(const po::variables_map& vm);

// Parses the subcommand's arguments; prints the error and returns false on bad usage.
bool parse_arguments(const std::vector<std::string>& args, const po::options_description& visible,
                     const po::positional_options_description& positional, po::variables_map& vm,
                     const std::string& command);

// The arguments of a command that reads one TRACE (inspect, what-if): `visible` plus -v/-q and the
// positional TRACE, parsed; --help printed; verbosity applied. Returns the exit code to stop with
// (help: kExitOk; bad usage or no TRACE: kExitUsage, the problem printed), or nullopt to go on.
std::optional<int> parse_trace_command(const std::vector<std::string>& args,
                                       po::options_description& visible, po::variables_map& vm,
                                       const std::string& command);

// Wall seconds since `start`.
double seconds_since(std::chrono::steady_clock::time_point start);

// Trace-load progress for `command` ("loupe <command>: read N MB of JSON (P% of the file)"),
// or an empty callback when quiet or the file is small enough to load in a blink.
std::function<void(std::uint64_t, std::uint64_t)> trace_load_progress(const std::string& command,
                                                                      std::uint64_t file_size,
                                                                      bool quiet);

// `loupe analyze` input checks: prints "loupe analyze: OPTION PATH: problem" and returns false
// when `path` is not a readable regular file.
bool check_readable_file(const std::filesystem::path& path, const char* option);
// `loupe analyze` / `inspect`: prints "loupe COMMAND: OPTION PATH: <what the file is>, not a
// PyTorch profiler trace; ..." and returns false when `path` is another profiler's output or
// not JSON text (core/include/loupe/core/trace/input_format.hpp). `option` may be empty.
bool check_trace_format(const std::filesystem::path& path, const char* option,
                        const std::string& command);
// "" when files can be written into `dir` (which may not exist yet); else why not.
std::string check_writable_dir(const std::filesystem::path& dir);

int run_analyze(const std::vector<std::string>& args);
int run_diff_findings(const std::vector<std::string>& args);
int run_inspect(const std::vector<std::string>& args);
int run_plugins(const std::vector<std::string>& args);
int run_validate(const std::vector<std::string>& args);
int run_what_if(const std::vector<std::string>& args);

}  // namespace loupe::cli
