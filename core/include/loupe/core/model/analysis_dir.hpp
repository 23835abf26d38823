// Loading a TraceLens-style analysis directory into a Model.
#pragma once

#include <filesystem>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>

#include "loupe/core/model/arch_specs.hpp"
#include "loupe/core/model/model.hpp"

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

// One file of an analysis directory held in memory (the preparation of `--trace` computes them).
struct AnalysisFile {
  std::string_view relative_path;  // e.g. "category_data/gemm_ops.csv"
  std::string_view bytes;
  // A CSV file's table when the preparation built it along with the bytes (equal to
  // parse_csv(bytes)); nullptr: parsed from the bytes.
  std::shared_ptr<const CsvTable> table;
};

// The Model that load_analysis_directory would build from DIR if DIR held exactly `files`: the
// same files taken (category_data/ and metadata/ JSON, category_data/ and perf_report*_csvs/ CSV,
// direct children only), in the same order, with the same properties ("input_dir" is DIR).
// Nothing is read from disk, so a run that prepared the directory does not parse it back.
Model load_analysis_files(const std::filesystem::path& dir, std::span<const AnalysisFile> files,
                          ArchSet arch_set = ArchSet::kAll);

// What planning needs, read cheaply: the manifest, and the category tables by name only (empty),
// so `loupe analyze` can refuse an impossible request before it touches any file.
Model outline_analysis_directory(const std::filesystem::path& dir);

// Reads a whole file. Throws std::runtime_error naming the file on failure.
std::string read_file(const std::filesystem::path& path);

}  // namespace loupe::core
