#pragma once
// Python `str` semantics needed by the validator (spec §0.2): universal newlines,
// splitlines(), strip() whitespace set, split('|'), lower(), repr().
// All functions take and return UTF-8; string_views point into the argument.
#include <string>
#include <string_view>
#include <vector>

namespace loupe::core::validate_detail {

// Universal newlines as in Python text mode: "\r\n" and lone "\r" become "\n".
std::string normalize_newlines(std::string_view text);

// str.splitlines(): splits on \n \r \r\n \v \f \x1c \x1d \x1e \x85 \u2028 \u2029; a final
// separator does not produce an empty last line.
std::vector<std::string_view> split_lines(std::string_view text);

// str.strip() / lstrip() / rstrip() with no argument (str.isspace() set).
std::string_view strip(std::string_view text);
std::string_view lstrip(std::string_view text);
std::string_view rstrip(std::string_view text);

// str.strip(c) for a single ASCII character.
std::string_view strip_char(std::string_view text, char c);

// str.split(c) for a single ASCII separator (every occurrence splits; empty pieces kept).
std::vector<std::string_view> split_on(std::string_view text, char separator);

// str.lower() (full Unicode case mapping).
std::string lower(std::string_view text);

// repr(str) and repr(list[str]).
std::string repr(std::string_view text);
std::string repr_list(const std::vector<std::string>& items);

// str.replace(from, to) for every non-overlapping occurrence, left to right.
std::string replace_all(std::string_view text, std::string_view from, std::string_view to);

}  // namespace loupe::core::validate_detail
