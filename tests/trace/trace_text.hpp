// Helpers that build small trace texts (and gzip them) for the reader and CLI tests.
#pragma once

#include <string>

namespace loupe::test::trace {

// A minimal well-formed trace: one cpu_op enclosing a launch, its kernel and the ac2g flows.
std::string small_trace();
// `"traceEvents": [ ...events... ]` wrapped in a top-level object.
std::string wrap_events(const std::string& events);
// A gzip member (RFC 1952) of `data`.
std::string gzip(const std::string& data);

}  // namespace loupe::test::trace
