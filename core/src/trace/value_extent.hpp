// The event-boundary splitter (spec §5.2): where a JSON value that starts at a given byte ends,
// tracking only string / escape state and bracket depth (no validation). Used to hand one
// complete element of `traceEvents` to a parser that needs it in contiguous memory.
#pragma once

#include <cstddef>
#include <string_view>

namespace loupe::core::trace {

inline constexpr std::size_t kValueIncomplete = static_cast<std::size_t>(-1);

// JSON's four whitespace bytes (RFC 8259).
inline bool is_json_whitespace(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

// `text[pos]` is the first byte of a value (not whitespace). Returns the index just after the
// value, or kValueIncomplete when `text` ends first. Objects and arrays end at the bracket
// that brings the depth back to zero (brackets inside strings ignored, `\"` honoured);
// strings at their closing quote; scalars (numbers, literals, anything else) at the first
// whitespace, ',', ']', '}' or ':' — the scalar must be followed by one of these in `text`.
std::size_t find_value_end(std::string_view text, std::size_t pos);

}  // namespace loupe::core::trace
