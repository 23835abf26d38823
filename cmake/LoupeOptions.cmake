# Warning and sanitizer settings shared by every Loupe target.
option(LOUPE_WERROR "Treat warnings as errors" OFF)
option(LOUPE_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)

add_library(loupe_warnings INTERFACE)
target_compile_options(loupe_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion
  $<$<BOOL:${LOUPE_WERROR}>:-Werror>)

if(LOUPE_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
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
