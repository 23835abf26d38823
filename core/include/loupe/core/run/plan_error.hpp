// The error for a request that cannot be planned.
#pragma once

#include <stdexcept>

namespace loupe::core {

// The request cannot be planned (unknown --only category, dependency cycle, no manifest, a
// manifest of the wrong shape...).
class PlanError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace loupe::core
