// libstdc++ fills std::ctype<char>'s narrow and widen tables lazily, one character at a time, from
// whichever thread asks first (GCC bug 77704). std::regex compiles its patterns through them, and
// the preparation's helper threads compile perf-model and kernel-classifier patterns while the
// main thread does: every such first use is a write that races with the other thread's read
// (ThreadSanitizer reports it; the values written are the same). Filling both tables whole, once,
// before the first helper starts makes every later use a read.
#pragma once

namespace loupe::core::session {

// Fills the global locale's std::ctype<char> narrow and widen tables. Idempotent and cheap (two
// 256-byte conversions); call it before the preparation starts a thread.
void fill_ctype_tables();

}  // namespace loupe::core::session
