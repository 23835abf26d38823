#pragma once
// Unicode character classes with Python 3.11 `re` / `str` semantics (Unicode 14.0).
// The range tables live in the generated unicode_tables_data.cpp (gen_unicode_tables.py).
#include <cstddef>
#include <string>

namespace loupe::core::validate_detail {

struct CodePointRange {
  char32_t first;
  char32_t last;
};

struct LowerMapping {
  char32_t from;
  char32_t to[3];  // str.lower() result, zero-padded
};

extern const CodePointRange kWordRanges[];
extern const std::size_t kWordRanges_size;
extern const CodePointRange kDecimalRanges[];
extern const std::size_t kDecimalRanges_size;
extern const CodePointRange kPrintableRanges[];
extern const std::size_t kPrintableRanges_size;
extern const LowerMapping kLowerMappings[];
extern const std::size_t kLowerMappings_size;

bool is_word_char(char32_t cp);       // re `\w` (str.isalnum() or '_')
bool is_decimal_digit(char32_t cp);   // re `\d` (category Nd)
bool is_space_char(char32_t cp);      // re `\s` and str.isspace()
bool is_printable_char(char32_t cp);  // str.isprintable(), used by repr()

// Appends str.lower() of one code point (full case mapping, may be several code points).
void append_lowercase(char32_t cp, std::string& out);

}  // namespace loupe::core::validate_detail
