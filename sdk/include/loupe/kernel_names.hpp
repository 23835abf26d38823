// Kernel names short enough for a finding's title (docs/report.md, "Serving steps and GPU
// graphs"): the full name stays in the evidence. Header-only, shared by the host's run report
// and the plugins.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace loupe {

// "void foo<int, 4>(float*, int)" -> "foo"; Tensile's
// "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x32x256_MI16x16x1_..." ->
// "Cijk_Alik_Bljk_BBS_MT32x32x256~1a2b" (layout, types and macro tile, then 4 hex digits of a
// hash of the full name, since solutions that differ only in later fields are distinct kernels);
// anything still longer than max_chars is cut, with "..." at the end.
inline std::string short_kernel_name(std::string_view name, std::size_t max_chars = 60) {
  std::string_view s = name;
  if (s.starts_with("void ")) s.remove_prefix(5);
  // Cut template arguments and the parameter list, but keep "(anonymous namespace)::" parts.
  std::string out;
  int depth = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    const char c = s[i];
    if (c == '(' && s.substr(i).starts_with("(anonymous namespace)")) {
      i += std::string_view("(anonymous namespace)").size() - 1;
      if (depth == 0) out += "(anonymous)";
      continue;
    }
    if (c == '<') {
      ++depth;
      continue;
    }
    if (c == '>' && depth > 0) {
      --depth;
      continue;
    }
    if (depth > 0) continue;
    if (c == '(') break;
    out.push_back(c);
  }
  if (out.starts_with("(anonymous)::")) out.erase(0, 13);
  if (out.rfind("Cijk_", 0) == 0) {
    // Cijk_<A layout>_<B layout>_<types>_..._MT<tile>_...
    std::string head;
    std::size_t pos = 0;
    for (int field = 0; field < 4 && pos != std::string::npos; ++field) {
      const std::size_t next = out.find('_', pos);
      head += out.substr(pos, next == std::string::npos ? std::string::npos : next - pos);
      if (field < 3) head.push_back('_');
      pos = next == std::string::npos ? next : next + 1;
    }
    const std::size_t mt = out.find("_MT");
    if (mt != std::string::npos) {
      const std::size_t end = out.find('_', mt + 1);
      head += out.substr(mt, end == std::string::npos ? std::string::npos : end - mt);
    }
    std::uint32_t h = 2166136261U;  // FNV-1a of the full name
    for (const char c : name) h = (h ^ static_cast<unsigned char>(c)) * 16777619U;
    static constexpr char kHex[] = "0123456789abcdef";
    head.push_back('~');
    for (int shift = 12; shift >= 0; shift -= 4) head.push_back(kHex[(h >> shift) & 0xFU]);
    out = head;
  }
  if (out.empty()) out = std::string(name);
  if (out.size() > max_chars) out = out.substr(0, max_chars - 3) + "...";
  return out;
}

}  // namespace loupe
