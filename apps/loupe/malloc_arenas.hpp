// One malloc arena for the whole process: the threads that parse trace blocks, inflate a .json.gz
// and build the trace views and perf sheets beside the preparation would otherwise each get an
// arena of their own, whose freed pages the main thread's later tables do not reuse
// (docs/performance.md, "Big traces").
#pragma once

namespace loupe::cli {

// Limits glibc's malloc to its main arena (mallopt M_ARENA_MAX 1). Call first in main(), before
// any thread starts; a no-op on other C libraries.
void use_one_malloc_arena();

}  // namespace loupe::cli
