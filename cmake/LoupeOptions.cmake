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
