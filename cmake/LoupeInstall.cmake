# Installation: the CLI, bundled plugins (installed by plugins/CMakeLists.txt), the SDK headers,
# and a CMake package so out-of-tree plugins can do find_package(Loupe) -> Loupe::sdk.
# Two components, packaged as two Debian packages by cmake/LoupePackaging.cmake:
#   runtime (loupe):   bin/loupe and <libdir>/loupe/plugins/*.so
#   dev     (loupe-dev): headers, the compute library and the CMake package
include(CMakePackageConfigHelpers)

install(TARGETS loupe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT runtime)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/loupe DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        COMPONENT dev)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/compute/include/loupe
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT dev)
install(TARGETS loupe_sdk EXPORT LoupeTargets COMPONENT dev)
install(TARGETS loupe_compute EXPORT LoupeTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        COMPONENT dev)
install(EXPORT LoupeTargets NAMESPACE Loupe:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe
        COMPONENT dev)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/LoupePlugin.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe COMPONENT dev)

# Where `loupe` looks for its bundled plugins, relative to the install prefix.
set(LOUPE_PLUGIN_INSTALL_DIR ${CMAKE_INSTALL_LIBDIR}/loupe/plugins)
# The plugin ABI of this SDK (sdk/include/loupe/abi.h), for a plugin package's dependency.
file(STRINGS ${PROJECT_SOURCE_DIR}/sdk/include/loupe/abi.h LOUPE_ABI_LINES
     REGEX "^#define LOUPE_ABI_(MAJOR|MINOR) [0-9]+$")
string(REGEX REPLACE ".*LOUPE_ABI_MAJOR ([0-9]+).*" "\\1" LOUPE_ABI_MAJOR "${LOUPE_ABI_LINES}")
string(REGEX REPLACE ".*LOUPE_ABI_MINOR ([0-9]+).*" "\\1" LOUPE_ABI_MINOR "${LOUPE_ABI_LINES}")
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/LoupeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/LoupeConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe
  PATH_VARS LOUPE_PLUGIN_INSTALL_DIR)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/LoupeConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/LoupeConfig.cmake ${PROJECT_BINARY_DIR}/LoupeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe COMPONENT dev)

include(${PROJECT_SOURCE_DIR}/cmake/LoupePackaging.cmake)
