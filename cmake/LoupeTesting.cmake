# Test helpers shared by tests/ and the tests that live beside plugins (plugins/<name>/tests).
find_package(Catch2 2 REQUIRED)

# Catch2 main plus tests/support (data locations, running the CLI, comparing outputs).
add_library(loupe_test_main STATIC
  ${PROJECT_SOURCE_DIR}/tests/support/catch_main.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/test_paths.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/cli_runner.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/category_cli.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/inline_trace.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/reference_pack.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/schema_check.cpp)
target_include_directories(loupe_test_main PUBLIC ${PROJECT_SOURCE_DIR}/tests/support)
# Catch2's implementation is generated only where CATCH_CONFIG_RUNNER precedes the first include
# of catch.hpp, so in a unity build catch_main.cpp stays a translation unit of its own.
set_source_files_properties(${PROJECT_SOURCE_DIR}/tests/support/catch_main.cpp
                            PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
target_link_libraries(loupe_test_main PUBLIC Catch2::Catch2 loupe_warnings)
target_compile_definitions(loupe_test_main PRIVATE
  LOUPE_TESTS_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
  LOUPE_SHARED_DIR_DEFAULT="${LOUPE_SHARED_DIR}"
  LOUPE_EXE_PATH="${PROJECT_BINARY_DIR}/bin/loupe"
  LOUPE_BUNDLED_PLUGIN_DIR="${PROJECT_BINARY_DIR}/lib/loupe/plugins"
  LOUPE_TEST_PLUGIN_DIR="${PROJECT_BINARY_DIR}/tests/plugins")

# With LOUPE_PCH, every test executable reuses one PCH of Catch2 and the standard headers
# (loupe_test_pch; an executable, so that its -fPIE and flags are those of the tests). Catch2's
# header is the heaviest part of most test sources.
if(LOUPE_PCH)
  set(LOUPE_TEST_PCH_MAIN ${PROJECT_BINARY_DIR}/loupe_test_pch_main.cpp)
  file(CONFIGURE OUTPUT ${LOUPE_TEST_PCH_MAIN}
       CONTENT "// The program that builds the tests' shared PCH.\nint main() { return 0; }\n")
  add_executable(loupe_test_pch EXCLUDE_FROM_ALL ${LOUPE_TEST_PCH_MAIN})
  target_link_libraries(loupe_test_pch PRIVATE Catch2::Catch2 RapidJSON::RapidJSON loupe_warnings)
  target_precompile_headers(loupe_test_pch PRIVATE <catch2/catch.hpp> ${LOUPE_PCH_HEADERS})
  _loupe_pch_clang_options(loupe_test_pch)
endif()

# Which output files a run reads back (inotify), for the tests that check it reads none.
add_library(loupe_test_file_events STATIC ${PROJECT_SOURCE_DIR}/tests/support/file_events.cpp)
target_include_directories(loupe_test_file_events PUBLIC ${PROJECT_SOURCE_DIR}/tests/support)
target_link_libraries(loupe_test_file_events PRIVATE loupe_warnings)

# loupe_add_test(NAME SOURCES a.cpp b.cpp LIBS x y [NEEDS_CLI] [NOT_SANITIZED])
# NEEDS_CLI: the test runs the loupe executable and the bundled plugins, so build them first.
# NOT_SANITIZED: nothing a sanitizer adds to; the test carries the label `no_asan`.
#
# Test cases tagged [pack] need the reference pack (../shared). They run as their own ctest entry
# (NAME when every case of the binary is tagged, else NAME_pack beside NAME for the others), which
# ctest reports as skipped, not passed, when the pack is absent: the test main exits with 77
# (tests/support/catch_main.cpp). That entry carries the label `pack`, which the asan test preset
# leaves out (the pack-wide sweeps run once, in the dev suite).
#
# In a sanitizer build (LOUPE_SANITIZE) an entry that would carry `pack` or `no_asan` is not
# registered, and an executable with no other entry is left out of `all`: the asan suite would
# not run it, and compiling and linking those took 7 % of that build's CPU time (docs/performance.md,
# "Build and CI time"). `cmake --build build/asan --target NAME` still builds one to run by hand.
function(loupe_add_test name)
  cmake_parse_arguments(ARG "NEEDS_CLI;NOT_SANITIZED" "" "SOURCES;LIBS" ${ARGN})
  set(cases 0)
  set(pack_cases 0)
  foreach(source IN LISTS ARG_SOURCES)
    if(IS_ABSOLUTE ${source})
      file(READ ${source} text)
    else()
      file(READ ${CMAKE_CURRENT_SOURCE_DIR}/${source} text)
    endif()
    string(REGEX MATCHALL "TEST_CASE\\(" found "${text}")
    list(LENGTH found n)
    math(EXPR cases "${cases} + ${n}")
    string(REGEX MATCHALL "\\[pack\\]\"" found "${text}")
    list(LENGTH found n)
    math(EXPR pack_cases "${pack_cases} + ${n}")
  endforeach()
  # In a sanitizer build (see above): built only on request, not registered.
  set(unregistered OFF)
  if(LOUPE_SANITIZE AND (ARG_NOT_SANITIZED OR (pack_cases GREATER 0 AND pack_cases EQUAL cases)))
    set(unregistered ON)
  endif()
  if(unregistered)
    add_executable(${name} EXCLUDE_FROM_ALL ${ARG_SOURCES})
  else()
    add_executable(${name} ${ARG_SOURCES})
  endif()
  target_link_libraries(${name} PRIVATE loupe_test_main loupe_warnings ${ARG_LIBS})
  if(TARGET loupe_test_pch)
    target_precompile_headers(${name} REUSE_FROM loupe_test_pch)
    _loupe_pch_clang_options(${name})
  endif()
  if(ARG_NEEDS_CLI)
    add_dependencies(${name} loupe)
    if(TARGET loupe_all_plugins)
      add_dependencies(${name} loupe_all_plugins)
    endif()
  endif()
  if(unregistered)
    return()
  endif()
  if(ARG_NOT_SANITIZED)
    add_test(NAME ${name} COMMAND ${name})
    set_tests_properties(${name} PROPERTIES LABELS no_asan)
  elseif(pack_cases EQUAL 0)
    add_test(NAME ${name} COMMAND ${name})
  elseif(pack_cases EQUAL cases)
    add_test(NAME ${name} COMMAND ${name} --loupe-needs-pack "[pack]")
    set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 LABELS pack)
  else()
    add_test(NAME ${name} COMMAND ${name} "~[pack]")
    if(NOT LOUPE_SANITIZE)
      add_test(NAME ${name}_pack COMMAND ${name} --loupe-needs-pack "[pack]")
      set_tests_properties(${name}_pack PROPERTIES SKIP_RETURN_CODE 77 LABELS pack)
    endif()
  endif()
endfunction()
