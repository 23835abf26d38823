// The two kinds of block the report takes from a rendered findings file (docs/report.md,
// "analysis.md"): the cards under "## Recommendations" and the reasoning blocks under
// "## Detailed Analysis", each with its P number and title.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace loupe::core::report_detail {

struct FindingsBlock {
  int number = 0;                 // the N of "P<N>:" in the heading (0 when the heading has none)
  std::string title;              // the heading after "P<N>: " (or after "#### " without a number)
  std::vector<std::string> body;  // the lines after the heading, trailing blanks and rules cut
};

// "### [icon ]P<N>: title" blocks of the "## Recommendations" section.
std::vector<FindingsBlock> recommendation_cards(std::string_view markdown);

// The blocks that follow each "<!-- reasoning-candidate ... -->" marker of the
// "## Detailed Analysis" section; the title is the "#### " heading's.
std::vector<FindingsBlock> detail_blocks(std::string_view markdown);

// The value of a "**Label**: value" line in a card body ("" when absent).
std::string card_field(const FindingsBlock& card, std::string_view label);

}  // namespace loupe::core::report_detail
