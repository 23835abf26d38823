# Test helpers shared by tests/ and the tests that live beside plugins (plugins/<name>/tests).
find_package(Catch2 2 REQUIRED)

# Catch2 main plus tests/support (data locations, running the CLI, comparing outputs).
add_library(loupe_test_main STATIC
  ${PROJECT_SOURCE_DIR}/tests/support/catch_main.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/test_paths.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/cli_runner.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/inline_trace.cpp
  ${PROJECT_SOURCE_DIR}/tests/support/reference_pack.cpp)
target_include_directories(loupe_test_main PUBLIC ${PROJECT_SOURCE_DIR}/tests/support)
target_link_libraries(loupe_test_main PUBLIC Catch2::Catch2 loupe_warnings)
target_compile_definitions(loupe_test_main PRIVATE
  LOUPE_TESTS_DATA_DIR="${PROJECT_SOURCE_DIR}/tests/data"
  LOUPE_SHARED_DIR_DEFAULT="${LOUPE_SHARED_DIR}"
  LOUPE_EXE_PATH="${PROJECT_BINARY_DIR}/bin/loupe"
  LOUPE_BUNDLED_PLUGIN_DIR="${PROJECT_BINARY_DIR}/lib/loupe/plugins"
  LOUPE_TEST_PLUGIN_DIR="${PROJECT_BINARY_DIR}/tests/plugins")

# loupe_add_test(NAME SOURCES a.cpp b.cpp LIBS x y [NEEDS_CLI])
# NEEDS_CLI: the test runs the loupe executable and the bundled plugins, so build them first.
function(loupe_add_test name)
  cmake_parse_arguments(ARG "NEEDS_CLI" "" "SOURCES;LIBS" ${ARGN})
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE loupe_test_main loupe_warnings ${ARG_LIBS})
  add_test(NAME ${name} COMMAND ${name})
  if(ARG_NEEDS_CLI)
    add_dependencies(${name} loupe)
    if(TARGET loupe_all_plugins)
      add_dependencies(${name} loupe_all_plugins)
    endif()
  endif()
endfunction()
