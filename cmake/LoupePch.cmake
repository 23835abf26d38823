# Precompiled headers (LOUPE_PCH): the standard headers most sources include and RapidJSON's
# document.h, parsed once per build tree instead of once per source file. Measured in
# docs/performance.md ("Precompiled headers").
#
# One PCH serves every static library of core/, sdk/ and plugins/ with at least
# LOUPE_PCH_MIN_SOURCES C++ sources and the same symbol visibility (REUSE_FROM loupe_pch_<visibility>;
# they share the compiler flags that the PCH depends on: -fPIC, -fvisibility, the warnings of
# loupe_warnings, the build type and sanitizer flags). The
# loupe executable (-fPIE) gets its own PCH, which also holds spdlog and Boost.ProgramOptions.
# Plugin modules (one source each, hidden visibility) get none; the test executables share their own
# (loupe_test_pch, cmake/LoupeTesting.cmake). CMake adds -Winvalid-pch (GCC), so a PCH the compiler
# rejects shows as a warning, an error under LOUPE_WERROR.
# Off by default: the demo, dev and asan presets turn it on; the fuzz and release builds compile
# without it.
option(LOUPE_PCH "Precompile the heavy standard and third-party headers" OFF)
set(LOUPE_PCH_MIN_SOURCES 3 CACHE STRING "Fewest C++ sources a library needs to use the PCH")

set(LOUPE_PCH_HEADERS
  <algorithm> <array> <cstdint> <cstring> <filesystem> <fstream> <functional> <map> <memory>
  <optional> <set> <sstream> <string> <string_view> <unordered_map> <unordered_set> <utility>
  <variant> <vector> <rapidjson/document.h>)

# ccache and PCH (ccache manual, "Precompiled headers"): the PCH is passed with -include (CMake
# does), and ccache must be told to accept it with sloppiness pch_defines,time_macros (plus the
# include file times, since the .gch is rewritten on every fresh build). Clang must not stamp the
# PCH with a time (-fno-pch-timestamp), or a cached object is rejected by a rebuilt PCH.
function(loupe_pch_ccache_launcher)
  if(NOT LOUPE_PCH OR NOT LOUPE_CCACHE_PROGRAM)
    return()
  endif()
  if(NOT CMAKE_CXX_COMPILER_LAUNCHER STREQUAL LOUPE_CCACHE_PROGRAM)
    return()  # a launcher given by the caller stays as it is
  endif()
  find_program(LOUPE_ENV_PROGRAM env REQUIRED)
  set(launcher ${LOUPE_ENV_PROGRAM}
      CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime
      ${LOUPE_CCACHE_PROGRAM})
  set(CMAKE_C_COMPILER_LAUNCHER "${launcher}" PARENT_SCOPE)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${launcher}" PARENT_SCOPE)
endfunction()

function(_loupe_pch_clang_options target)
  if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
    target_compile_options(${target} PRIVATE
      $<$<COMPILE_LANGUAGE:CXX>:SHELL:-Xclang -fno-pch-timestamp>)
  endif()
endfunction()

function(_loupe_pch_cxx_sources target out)
  get_target_property(sources ${target} SOURCES)
  set(n 0)
  foreach(s IN LISTS sources)
    if(s MATCHES "\\.c$")
      set(${out} -1 PARENT_SCOPE)  # C sources: the C++ PCH would not apply
      return()
    endif()
    if(s MATCHES "\\.(cpp|cc|cxx)$")
      math(EXPR n "${n} + 1")
    endif()
  endforeach()
  set(${out} ${n} PARENT_SCOPE)
endfunction()

function(_loupe_pch_collect dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _loupe_pch_collect(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

# loupe_enable_pch(DIRS <source dirs...> EXECUTABLES <targets...>)
function(loupe_enable_pch)
  if(NOT LOUPE_PCH)
    return()
  endif()
  cmake_parse_arguments(ARG "" "" "DIRS;EXECUTABLES" ${ARGN})
  set(pch_source ${PROJECT_BINARY_DIR}/loupe_pch.cpp)
  file(CONFIGURE OUTPUT ${pch_source} CONTENT "// The translation unit that builds the shared PCH.\n")
  set(users "")
  foreach(dir IN LISTS ARG_DIRS)
    _loupe_pch_collect(${dir} targets)
    foreach(t IN LISTS targets)
      get_target_property(type ${t} TYPE)
      if(NOT type STREQUAL "STATIC_LIBRARY" AND NOT type STREQUAL "OBJECT_LIBRARY")
        continue()
      endif()
      _loupe_pch_cxx_sources(${t} n)
      if(n LESS LOUPE_PCH_MIN_SOURCES)
        continue()
      endif()
      # -fvisibility must match the PCH's (clang rejects it otherwise): one PCH per visibility.
      get_target_property(visibility ${t} CXX_VISIBILITY_PRESET)
      get_target_property(inlines_hidden ${t} VISIBILITY_INLINES_HIDDEN)
      if(NOT visibility)
        set(visibility default)
      endif()
      if(inlines_hidden)
        set(pch loupe_pch_${visibility}_inlines_hidden)
      else()
        set(pch loupe_pch_${visibility})
      endif()
      if(NOT TARGET ${pch})
        add_library(${pch} STATIC EXCLUDE_FROM_ALL ${pch_source})
        target_link_libraries(${pch} PRIVATE RapidJSON::RapidJSON loupe_warnings)
        target_precompile_headers(${pch} PRIVATE ${LOUPE_PCH_HEADERS})
        set_target_properties(${pch} PROPERTIES
          CXX_VISIBILITY_PRESET ${visibility} VISIBILITY_INLINES_HIDDEN "${inlines_hidden}")
        _loupe_pch_clang_options(${pch})
      endif()
      target_precompile_headers(${t} REUSE_FROM ${pch})
      _loupe_pch_clang_options(${t})
      list(APPEND users ${t})
    endforeach()
  endforeach()
  foreach(t IN LISTS ARG_EXECUTABLES)
    if(TARGET ${t})
      target_precompile_headers(${t} PRIVATE ${LOUPE_PCH_HEADERS}
        <spdlog/spdlog.h> <boost/program_options.hpp>)
      _loupe_pch_clang_options(${t})
      list(APPEND users ${t})
    endif()
  endforeach()
  list(LENGTH users n)
  message(STATUS "Loupe: precompiled headers for ${n} targets (LOUPE_PCH=ON)")
endfunction()
