# Debian packages through CPack: `cpack --config <build>/CPackConfig.cmake` (or
# `cmake --build <build> --target package`) writes
#   loupe_<version>_<arch>.deb      the CLI and the bundled plugins
#   loupe-dev_<version>_<arch>.deb  headers, Loupe::compute (a static C++ library, tied to the
#                                   compiler and standard library it was built with) and the
#                                   CMake package for out-of-tree plugins
# Both install under /usr. Runtime dependencies come from dpkg-shlibdeps.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME loupe)
set(CPACK_PACKAGE_VENDOR "Loupe")
set(CPACK_PACKAGE_CONTACT "Loupe developers <loupe@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Validated, prioritized performance findings from GPU profiler traces")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME loupe)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
# What plugin packages depend on: the ABI (docs/plugin-abi.md, "Shipping a plugin").
set(CPACK_DEBIAN_RUNTIME_PACKAGE_PROVIDES
    "loupe-abi-${LOUPE_ABI_MAJOR} (= ${LOUPE_ABI_MAJOR}.${LOUPE_ABI_MINOR})")
set(CPACK_DEBIAN_DEV_PACKAGE_NAME loupe-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "loupe (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_COMPONENT_RUNTIME_DESCRIPTION "Loupe CLI and bundled analyzer plugins")
set(CPACK_COMPONENT_DEV_DESCRIPTION "Loupe plugin SDK: headers, compute library, CMake package")
include(CPack)
