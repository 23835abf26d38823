// Writing output files so that a reader never sees a partial file.
#pragma once

#include <filesystem>
#include <string_view>

namespace loupe::core {

// Writes the bytes to a temporary file in the same directory (created if missing), flushes it,
// then renames it over `path`. On failure the temporary file is removed, `path` is untouched,
// and std::runtime_error names the file and the reason.
void write_file_atomically(const std::filesystem::path& path, std::string_view bytes);

}  // namespace loupe::core
