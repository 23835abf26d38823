// A guard for every JSON entry point: the nesting depth of a JSON text, found without parsing it,
// so that deeply nested input is refused before a recursive parser, walker or destructor could
// overflow the stack.
#pragma once

#include <cstddef>
#include <string_view>

namespace loupe::core {

// The deepest input Loupe accepts anywhere (arrays and objects nested in each other).
inline constexpr std::size_t kMaxJsonDepth = 512;

// True when arrays/objects in `text` nest deeper than `limit` (brackets inside strings do not
// count). Linear, no allocation; malformed text is left to the parser.
bool json_nesting_exceeds(std::string_view text, std::size_t limit = kMaxJsonDepth);

}  // namespace loupe::core
