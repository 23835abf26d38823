# Warning and sanitizer settings shared by every Loupe target.
option(LOUPE_WERROR "Treat warnings as errors" OFF)
option(LOUPE_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)

# ccache, when installed, caches compiles across build trees (a rebuild after a branch switch or a
# second checkout costs little). Off with -DLOUPE_CCACHE=OFF; a launcher given by the caller wins.
option(LOUPE_CCACHE "Compile through ccache when it is installed" ON)
if(LOUPE_CCACHE AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  find_program(LOUPE_CCACHE_PROGRAM ccache)
  if(LOUPE_CCACHE_PROGRAM)
    set(CMAKE_C_COMPILER_LAUNCHER "${LOUPE_CCACHE_PROGRAM}")
    set(CMAKE_CXX_COMPILER_LAUNCHER "${LOUPE_CCACHE_PROGRAM}")
  endif()
endif()

# The linker of every executable and shared module (-fuse-ld=<LOUPE_LINKER>; empty: the compiler's
# default). The dev and asan presets pick gold, which binutils installs with the compiler: it links
# the Debug test executables in about half the time of the default ld.bfd (docs/performance.md,
# "Build and CI time").
set(LOUPE_LINKER "" CACHE STRING "Linker passed as -fuse-ld= (e.g. gold); empty: the default")
if(LOUPE_LINKER)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=${LOUPE_LINKER}" LOUPE_HAS_LINKER_${LOUPE_LINKER})
  if(NOT LOUPE_HAS_LINKER_${LOUPE_LINKER})
    message(FATAL_ERROR "LOUPE_LINKER=${LOUPE_LINKER}: the compiler cannot link with "
                        "-fuse-ld=${LOUPE_LINKER} (install it, or configure with -DLOUPE_LINKER=)")
  endif()
  add_link_options(-fuse-ld=${LOUPE_LINKER})
endif()

add_library(loupe_warnings INTERFACE)
target_compile_options(loupe_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  $<$<BOOL:${LOUPE_WERROR}>:-Werror>)
# GCC 12's flow-based warnings of optimized builds fire on correct code inside libstdc++
# (-Wmaybe-uninitialized on a checked std::optional and on std::variant members, -Wstringop-overflow,
# -Wstringop-overread, -Warray-bounds and -Wrestrict on std::string copies): a fresh release build
# printed 38 of them, none real, and 7 -Wstringop-overread once -Warray-bounds was off. They need
# optimization, so the Debug presets (dev, asan) never ran them; GCC 13+ and clang keep them.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  set(gcc12_false_positives
      -Wno-maybe-uninitialized -Wno-stringop-overflow -Wno-stringop-overread -Wno-array-bounds
      -Wno-restrict)
  target_compile_options(loupe_warnings INTERFACE
    "$<$<NOT:$<CONFIG:Debug>>:${gcc12_false_positives}>")
endif()

if(LOUPE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
  # Executables without PIE: at -O0 every UBSan check keeps its source location in writable data
  # that points at the file name, millions of relative relocations that a PIE applies at each
  # start (0.7 s per start of the CLI, for `--version` too); a fixed address resolves them when
  # linking. Shared objects (the plugins) stay position-independent.
  add_link_options($<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
endif()

# libFuzzer builds (clang): every library gets coverage instrumentation for the fuzz targets in
# fuzz/, with ASan and UBSan.
option(LOUPE_FUZZ "Build the libFuzzer targets of fuzz/ (clang only)" OFF)
if(LOUPE_FUZZ)
  # pointer-overflow stays recoverable so fuzz/ubsan.supp can silence RapidJSON 1.1's Stack.
  add_compile_options(-fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined -fsanitize-recover=pointer-overflow)
  add_link_options(-fsanitize=address,undefined)
endif()
