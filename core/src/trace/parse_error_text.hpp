// The LoadError message for a RapidJSON parse error code (shared by the RapidJSON path and the
// event-array fast path so both report the same words).
#pragma once

#include <rapidjson/error/error.h>

#include <string>

namespace loupe::core::trace {

// `at`: the byte at the error offset; `at_end`: the error is at the end of the input.
std::string describe_parse_error(rapidjson::ParseErrorCode code, char at, bool at_end);

}  // namespace loupe::core::trace
