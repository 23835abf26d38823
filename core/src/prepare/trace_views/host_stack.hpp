// The host call stack above an event, as the trace views and the serving summary print it.
#pragma once

#include <string>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/trace_model.hpp"

namespace loupe::core::prepare {

// The names of the cpu_op / python_function / user_annotation events above `uid`, outermost
// first, at most the 8 innermost ones, joined by " > ".
std::string host_stack(const trace::TraceModel& model, const trace::EventTree& tree,
                       trace::Uid uid);

}  // namespace loupe::core::prepare
