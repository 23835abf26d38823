// TraceLens's sub-category of an uncategorized operation, from its name alone: communication
// (collectives), graph (GPU-graph launches) or miscellaneous. Heuristic by design.
#pragma once

#include <string_view>

namespace loupe::generic {

enum class SubCategory { Communication, Graph, Miscellaneous };

SubCategory classify_sub_category(std::string_view op_name);

// "communication", "graph", "miscellaneous" (the metrics spelling).
const char* sub_category_name(SubCategory sub);

}  // namespace loupe::generic
