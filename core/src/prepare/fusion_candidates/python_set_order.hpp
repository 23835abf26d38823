// The order in which CPython iterates a set of numbers: TraceLens concatenates trace-2 kernels
// by iterating a set of LCA ids (spec docs/contracts/fusion.md §2.7 step 4, Q14), so parity needs that order.
#pragma once

#include <cstdint>
#include <vector>

namespace loupe::core::prepare::fusion {

// CPython's hash() of an integer (an integral float hashes the same).
std::int64_t python_int_hash(std::int64_t value);

// The iteration order of a set built by adding `values` in order (duplicates ignored), as
// CPython 3.7+ lays out its open-addressing table (8 slots, linear probes of 9, then perturbed
// probing; resized to 4 × used when 3/5 full).
std::vector<std::int64_t> python_set_iteration_order(const std::vector<std::int64_t>& values);

}  // namespace loupe::core::prepare::fusion
