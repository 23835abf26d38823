# Installation: the CLI, bundled plugins (installed by plugins/CMakeLists.txt), the SDK headers,
# and a CMake package so out-of-tree plugins can do find_package(Loupe) -> Loupe::sdk.
include(CMakePackageConfigHelpers)

install(TARGETS loupe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/include/loupe DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sdk/compute/include/loupe DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS loupe_sdk EXPORT LoupeTargets)
install(TARGETS loupe_compute EXPORT LoupeTargets ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(EXPORT LoupeTargets NAMESPACE Loupe:: DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe)
install(FILES ${PROJECT_SOURCE_DIR}/cmake/LoupePlugin.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/LoupeConfig.cmake.in
  ${PROJECT_BINARY_DIR}/LoupeConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/LoupeConfigVersion.cmake
  COMPATIBILITY SameMajorVersion)
install(FILES ${PROJECT_BINARY_DIR}/LoupeConfig.cmake ${PROJECT_BINARY_DIR}/LoupeConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/Loupe)
