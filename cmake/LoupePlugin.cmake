# loupe_add_plugin(<target> SOURCES <files...> [LIBS <libs...>])
# Builds an analyzer plugin: a MODULE library linked to Loupe::sdk, with every symbol hidden
# except the entry point that LOUPE_REGISTER_PLUGIN exports. Usable in-tree and, after
# find_package(Loupe), out-of-tree.
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
endfunction()
