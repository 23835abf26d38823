// The name TraceDiff compares two events by (TraceLens's normalize_name_for_comparison).
#pragma once

#include <string>
#include <string_view>

namespace loupe::core::prepare::trace_diff {

// Hex addresses become "0xXXXX" and "file.py(123):" loses its line number. With
// `strip_details` (the second, aggressive matching pass) a trailing ": <word>" is dropped and
// a path ending in "<file>.py" keeps only the file name. Finally hipModuleLaunchKernel and
// cuLaunchKernel compare equal.
std::string normalize_name_for_comparison(std::string_view name, bool strip_details);

}  // namespace loupe::core::prepare::trace_diff
