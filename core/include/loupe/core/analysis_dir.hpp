// Loading a TraceLens-style analysis directory into a Model.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

#include "loupe/core/arch_specs.hpp"
#include "loupe/core/model.hpp"

namespace loupe::core {

// The directory itself is unusable (missing, not a directory). Maps to exit code 2.
class InputError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Loads category_data/*.json and *.csv, metadata/*.json and perf_report*_csvs/*.csv of DIR.
// Nothing outside DIR is opened: the absolute paths recorded inside the manifest are ignored.
// A file that cannot be read or parsed does not stop the load; it is recorded with
// Model::set_load_error and reported by the plugin that needs it. Also installs the bundled
// arch specs (`arch_set`) as documents "arch/<PLATFORM>.json" and the properties "input_dir" and
// "platform". Throws InputError when DIR is not a readable directory.
Model load_analysis_directory(const std::filesystem::path& dir, ArchSet arch_set = ArchSet::kAll);

// What planning needs, read cheaply: the manifest, and the category tables by name only (empty),
// so `loupe analyze` can refuse an impossible request before it touches any file.
Model outline_analysis_directory(const std::filesystem::path& dir);

// Reads a whole file. Throws std::runtime_error naming the file on failure.
std::string read_file(const std::filesystem::path& path);

}  // namespace loupe::core
