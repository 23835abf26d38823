#include "findings_blocks.hpp"

#include <cctype>

namespace loupe::core::report_detail {

namespace {

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < text.size()) lines.push_back(text.substr(start));
      break;
    }
    lines.push_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// The lines of the "## <name>" section, up to the next "## " heading.
std::vector<std::string_view> section(std::string_view markdown, std::string_view name) {
  std::vector<std::string_view> out;
  bool inside = false;
  for (const auto line : lines_of(markdown)) {
    if (starts_with(line, "## ")) {
      if (inside) break;
      inside = line.substr(3) == name;
      continue;
    }
    if (inside) out.push_back(line);
  }
  return out;
}

// "[icon ]P<N>: title" -> N and title; a heading without "P<N>:" keeps its whole text.
void parse_heading(std::string_view heading, FindingsBlock& block) {
  const size_t p = heading.find('P');
  if (p != std::string_view::npos && p <= 8) {  // at most an icon before the P number
    size_t i = p + 1;
    int n = 0;
    while (i < heading.size() && std::isdigit(static_cast<unsigned char>(heading[i])) != 0) {
      n = n * 10 + (heading[i] - '0');
      ++i;
    }
    if (i > p + 1 && i < heading.size() && heading[i] == ':') {
      block.number = n;
      std::string_view rest = heading.substr(i + 1);
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      block.title = std::string(rest);
      return;
    }
  }
  block.title = std::string(heading);
}

void trim_tail(std::vector<std::string>& body) {
  while (!body.empty() && (body.back().empty() || body.back() == "---")) body.pop_back();
  while (!body.empty() && body.front().empty()) body.erase(body.begin());
}

}  // namespace

std::vector<FindingsBlock> recommendation_cards(std::string_view markdown) {
  std::vector<FindingsBlock> cards;
  for (const auto line : section(markdown, "Recommendations")) {
    if (starts_with(line, "### ")) {
      cards.emplace_back();
      parse_heading(line.substr(4), cards.back());
    } else if (!cards.empty()) {
      cards.back().body.emplace_back(line);
    }
  }
  for (auto& c : cards) trim_tail(c.body);
  return cards;
}

std::vector<FindingsBlock> detail_blocks(std::string_view markdown) {
  std::vector<FindingsBlock> blocks;
  bool have_heading = false;
  for (const auto line : section(markdown, "Detailed Analysis")) {
    if (starts_with(line, "<!-- reasoning-candidate")) {
      blocks.emplace_back();
      have_heading = false;
    } else if (blocks.empty()) {
      continue;
    } else if (!have_heading && starts_with(line, "#### ")) {
      parse_heading(line.substr(5), blocks.back());
      have_heading = true;
    } else if (have_heading) {
      blocks.back().body.emplace_back(line);
    }
  }
  for (auto& b : blocks) trim_tail(b.body);
  return blocks;
}

std::string card_field(const FindingsBlock& card, std::string_view label) {
  const std::string prefix = "**" + std::string(label) + "**:";
  for (const auto& line : card.body) {
    if (starts_with(line, prefix)) {
      std::string_view rest = std::string_view(line).substr(prefix.size());
      while (!rest.empty() && rest.front() == ' ') rest.remove_prefix(1);
      return std::string(rest);
    }
  }
  return {};
}

}  // namespace loupe::core::report_detail
