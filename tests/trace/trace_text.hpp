// Helpers that build small trace texts (and gzip them) for the reader and CLI tests.
#pragma once

#include <string>

#include "loupe/core/trace/json_reader.hpp"

namespace loupe::test::trace {

// A minimal well-formed trace: one cpu_op enclosing a launch, its kernel and the ac2g flows.
std::string small_trace();
// `"traceEvents": [ ...events... ]` wrapped in a top-level object.
std::string wrap_events(const std::string& events);
// Everything a load gives, as text, for comparing two loads: per event every field, ids and
// args; the string pool in id order; threads with their metadata; per-category and per-cat
// counts; top-level metadata; warning counts per kind and samples; the error.
std::string model_dump(const loupe::core::trace::LoadResult& r);
// A gzip member (RFC 1952) of `data`.
std::string gzip(const std::string& data);

}  // namespace loupe::test::trace
