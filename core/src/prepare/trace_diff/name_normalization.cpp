#include "name_normalization.hpp"

#include <cctype>

namespace loupe::core::prepare::trace_diff {
namespace {

bool is_hex_digit(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
// Python's \s on str for the ASCII range (names are compared as text).
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' ||
         (c >= '\x1c' && c <= '\x1f');
}

// re.sub(r"0x[0-9a-fA-F]+", "0xXXXX", text)
std::string mask_hex_addresses(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (i + 2 < text.size() && text[i] == '0' && text[i + 1] == 'x' && is_hex_digit(text[i + 2])) {
      out += "0xXXXX";
      i += 2;
      while (i < text.size() && is_hex_digit(text[i])) ++i;
    } else {
      out.push_back(text[i++]);
    }
  }
  return out;
}

// re.sub(r"\.py\(\d+\):", ".py:", text)
std::string drop_line_numbers(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    if (text.substr(i, 4) == ".py(") {
      std::size_t j = i + 4;
      while (j < text.size() && is_digit(text[j])) ++j;
      if (j > i + 4 && text.substr(j, 2) == "):") {
        out += ".py:";
        i = j + 2;
        continue;
      }
    }
    out.push_back(text[i++]);
  }
  return out;
}

// re.sub(r":\s+\S+$", "", text): a colon, a whitespace run, then non-whitespace to the end.
std::string drop_trailing_detail(std::string text) {
  std::size_t tail = text.size();
  while (tail > 0 && !is_space(text[tail - 1])) --tail;
  if (tail == text.size()) return text;  // no non-whitespace tail
  std::size_t run = tail;
  while (run > 0 && is_space(text[run - 1])) --run;
  if (run == tail || run == 0 || text[run - 1] != ':') return text;
  text.erase(run - 1);
  return text;
}

// re.sub(r"^.*/([^/]+\.py)$", r"\1", text): a path to a .py file keeps only its file name.
std::string keep_python_file_name(std::string text) {
  if (text.find('\n') != std::string::npos) return text;  // '.' does not cross lines
  const std::size_t slash = text.rfind('/');
  if (slash == std::string::npos) return text;
  const std::string_view file = std::string_view(text).substr(slash + 1);
  if (file.size() < 4 || file.substr(file.size() - 3) != ".py") return text;
  return std::string(file);
}

}  // namespace

std::string normalize_name_for_comparison(std::string_view name, bool strip_details) {
  std::string normalized = drop_line_numbers(mask_hex_addresses(name));
  if (strip_details) {
    normalized = keep_python_file_name(drop_trailing_detail(std::move(normalized)));
  }
  if (normalized == "hipModuleLaunchKernel" || normalized == "cuLaunchKernel") {
    return "__kernel_launch__";
  }
  return normalized;
}

}  // namespace loupe::core::prepare::trace_diff
