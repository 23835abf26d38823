# loupe_add_plugin(<target> SOURCES <files...> [LIBS <libs...>])
# Builds an analyzer plugin: a MODULE library linked to Loupe::sdk, with every symbol hidden
# except the entry point that LOUPE_REGISTER_PLUGIN exports. A linker version script keeps the
# entry point the only dynamic symbol even when static libraries built without hidden visibility
# (Loupe::compute, a plugin's own logic library) are linked in. Usable in-tree and, after
# find_package(Loupe), out-of-tree.
set(LOUPE_PLUGIN_VERSION_SCRIPT ${CMAKE_CURRENT_BINARY_DIR}/loupe_plugin_exports.map)
file(WRITE ${LOUPE_PLUGIN_VERSION_SCRIPT} "{ global: loupe_plugin_entry; local: *; };\n")
function(loupe_add_plugin target)
  cmake_parse_arguments(ARG "" "" "SOURCES;LIBS" ${ARGN})
  add_library(${target} MODULE ${ARG_SOURCES})
  target_link_libraries(${target} PRIVATE Loupe::sdk ${ARG_LIBS})
  set_target_properties(${target} PROPERTIES
    PREFIX ""
    CXX_VISIBILITY_PRESET hidden
    C_VISIBILITY_PRESET hidden
    VISIBILITY_INLINES_HIDDEN ON)
  if(NOT WIN32 AND NOT LOUPE_SANITIZE)
    target_link_options(${target} PRIVATE -Wl,--no-undefined)
  endif()
  if(NOT WIN32 AND NOT APPLE)
    target_link_options(${target} PRIVATE -Wl,--version-script=${LOUPE_PLUGIN_VERSION_SCRIPT})
  endif()
endfunction()
