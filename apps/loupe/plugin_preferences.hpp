// Who is primary for a category when the user says so: `--prefer PLUGIN[:CATEGORY,...]` and the
// configuration file (docs/configuration.md), read and checked before any work.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "loupe/core/plugin/plugin_registry.hpp"

namespace loupe::cli {

struct PluginConfig {
  std::filesystem::path file;  // the configuration file read ("" when none)
  std::vector<core::Preference> preferences;
  std::vector<std::filesystem::path> plugin_dirs;  // the file's plugin_dirs, after --plugin-dir
  // --displaced-contribute or the file's "displaced_contribute": a plugin a preference displaces
  // runs as a contributor to the categories it lost (docs/configuration.md).
  bool displaced_contribute = false;
};

// Adds --prefer (repeatable), --displaced-contribute and --config FILE to `options`.
void add_preference_options(po::options_description& options);

// The configuration file: --config FILE (which must exist), else $XDG_CONFIG_HOME/loupe/config.json
// (XDG_CONFIG_HOME unset or empty: ~/.config) when it exists; then the --prefer values. Returns ""
// or the problem, naming the file and the entry (the caller exits 2).
std::string load_plugin_config(const po::variables_map& vm, PluginConfig& out);

// One preference as `--prefer` spells it: PLUGIN or PLUGIN:CATEGORY[,CATEGORY...]. Returns "" or
// what is wrong with it.
std::string parse_preference(const std::string& text, const std::string& source,
                             core::Preference& out);

}  // namespace loupe::cli
