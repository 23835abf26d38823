// Making untrusted text (plugin output, strings from a trace) safe to print or to write into
// UTF-8 outputs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace loupe::core {

// Length of the well-formed UTF-8 sequence starting at text[pos] (RFC 3629: no overlongs, no
// surrogates, at most U+10FFFF), or 0 when the bytes there are not one.
std::size_t utf8_sequence_length(std::string_view text, std::size_t pos);

// Control characters (except tab) and bytes that are not valid UTF-8 become \xNN; the rest is
// kept. For one line of a terminal or log.
std::string escape_for_terminal(std::string_view text);

// Bytes that are not valid UTF-8 become U+FFFD; valid text is returned unchanged.
std::string replace_invalid_utf8(std::string_view text);

}  // namespace loupe::core
