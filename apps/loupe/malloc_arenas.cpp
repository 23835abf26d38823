#include "malloc_arenas.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace loupe::cli {

void use_one_malloc_arena() {
#if defined(__GLIBC__)
  // Measured on the 8x owlv2 trace: peak RSS +25-30 MB with one arena per worker thread, and
  // the same load and analysis times with one arena (the threads allocate in large blocks).
  ::mallopt(M_ARENA_MAX, 1);
#endif
}

}  // namespace loupe::cli
