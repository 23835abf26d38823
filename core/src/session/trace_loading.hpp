// Loading the traces of a session: one trace with progress and its problems as an Error, and
// trace 2's platform.
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>

#include "loupe/core/error.hpp"
#include "loupe/core/prepare/arch_selection.hpp"
#include "loupe/core/session/session.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace loupe::core::session {

// Wall seconds since `start`, for the session's progress lines.
double seconds_since(std::chrono::steady_clock::time_point start);

// Loads `path`; an Error (Input) names the file and where the content stopped being usable.
Expected<trace::LoadResult> load_trace_file(const std::filesystem::path& path,
                                            const SessionOptions& options);

// Trace 2's platform: --arch2 / --platform2, else (default mode) what its deviceProperties show,
// else trace 1's. Compat mode keeps TraceLens's single platform unless told otherwise. nullopt:
// trace 1's, unrecorded (compat mode's manifest has no trace2_platform). Throws what
// select_arch_for_devices throws.
std::optional<prepare::ArchSelection> select_trace2_arch(const TraceInputs& inputs,
                                                         bool compat_tracelens,
                                                         const trace::LoadResult& loaded2,
                                                         const prepare::ArchSelection& arch1);

}  // namespace loupe::core::session
