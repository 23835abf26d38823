// Which CSV sheets a perf-model family produces and which op names move between its forward
// and backward tables (docs/contracts/trace_model.md §3.7).
#pragma once

#include <string>
#include <string_view>

namespace loupe::core::prepare::sheets {

// GEMM, UnaryElementwise, BinaryElementwise and Normalization get one table of forward
// metrics; every other family a `<family>_fwd` and a `<family>_bwd` table.
bool is_single_table_family(std::string_view family);

// Ops whose forward metrics already are backward costs: their rows leave the `_fwd` table and
// are appended to the `_bwd` one.
bool moves_to_backward_table(std::string_view op_name);

// Forward convolution ops whose backward-via-autograd rows are deleted from the `_bwd` table.
bool dropped_from_backward_table(std::string_view op_name);

// Ops never costed through their autograd backward.
bool excluded_from_backward(std::string_view op_name);

// "<family>.csv", "<family>_fwd.csv", "<family>_bwd.csv".
std::string sheet_file_name(std::string_view family, std::string_view suffix);

}  // namespace loupe::core::prepare::sheets
