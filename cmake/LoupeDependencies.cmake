# Third-party dependencies, all from Debian packages (see scripts/bootstrap.sh).
find_package(Boost 1.74 REQUIRED COMPONENTS program_options)
find_package(RapidJSON REQUIRED)
find_package(spdlog REQUIRED)
find_package(ZLIB REQUIRED)
find_package(Threads REQUIRED)
if(NOT TARGET RapidJSON::RapidJSON)
  add_library(RapidJSON::RapidJSON INTERFACE IMPORTED)
  set_target_properties(RapidJSON::RapidJSON PROPERTIES
    INTERFACE_INCLUDE_DIRECTORIES "${RAPIDJSON_INCLUDE_DIRS}")
endif()
# cairo (libcairo2-dev) draws the report's perf_improvement.png; without it the PNG is not
# written (the SVG plot and report.html are).
find_package(PkgConfig QUIET)
if(PkgConfig_FOUND)
  pkg_check_modules(CAIRO QUIET IMPORTED_TARGET cairo)
endif()
# Intel ISA-L (libisal-dev) inflates .json.gz traces several times faster than zlib
# (docs/performance.md, "What changed in the big-trace work"); without it the trace
# reader uses zlib.
option(LOUPE_USE_ISAL "Inflate .json.gz with ISA-L when libisal-dev is found" ON)
if(LOUPE_USE_ISAL AND PkgConfig_FOUND)
  pkg_check_modules(ISAL QUIET IMPORTED_TARGET libisal)
endif()
