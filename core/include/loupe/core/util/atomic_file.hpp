// Writing output files so that a reader never sees a partial file.
#pragma once

#include <filesystem>
#include <string_view>
#include <utility>
#include <vector>

namespace loupe::core {

// Writes the bytes to a temporary file in the same directory (created if missing), flushes it,
// then renames it over `path`. On failure the temporary file is removed, `path` is untouched,
// and std::runtime_error names the file and the reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

// The same for many files at once, with one filesystem flush for all of them: every file is
// written to its temporary first, then they are renamed into place in order. When a write
// fails, no target has been replaced yet.
void write_files_atomically(
    const std::vector<std::pair<std::filesystem::path, std::string_view>>& files);

}  // namespace loupe::core
