# The files through which other builds use mdebug, from cmake/package/: the
# toolchain file (share/mdebug), the package config (lib/cmake/mdebug) and
# the pkg-config files (lib/pkgconfig, with lib/mdebug-rt.dynlist), and
# mdebug-clang's linker script (lib/mdebug-layout.ld). Each is
# written into the build tree at the path it has in an install and finds
# the rest relative to itself, so both trees work. Owns their install rules too.
include(CMakePackageConfigHelpers)

set(MDEBUG_SHARE_DIR share/mdebug)
set(MDEBUG_CMAKE_DIR lib/cmake/mdebug)
set(MDEBUG_PKGCONFIG_DIR lib/pkgconfig)
set(src ${CMAKE_CURRENT_LIST_DIR}/package)

configure_file(${src}/mdebug-toolchain.cmake
               ${CMAKE_BINARY_DIR}/${MDEBUG_SHARE_DIR}/mdebug-toolchain.cmake COPYONLY)
configure_file(${src}/mdebugConfig.cmake.in
               ${CMAKE_BINARY_DIR}/${MDEBUG_CMAKE_DIR}/mdebugConfig.cmake @ONLY)
write_basic_package_version_file(
  ${CMAKE_BINARY_DIR}/${MDEBUG_CMAKE_DIR}/mdebugConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
# The standard symbols of the dynamic list come from abi.def (the SYMBOL of
# each entry), so the list cannot drift from what the runtime defines.
set(abi_def ${CMAKE_SOURCE_DIR}/runtime/include/mdebug/abi.def)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${abi_def})
file(STRINGS ${abi_def} abi_entries REGEX "^MDEBUG_ENTRY\\(")
set(MDEBUG_ABI_SYMBOLS "")
foreach(entry IN LISTS abi_entries)
  string(REGEX REPLACE "^MDEBUG_ENTRY\\([^,]*, *([^,]*),.*" "\\1" symbol "${entry}")
  string(APPEND MDEBUG_ABI_SYMBOLS "  ${symbol};\n")
endforeach()
configure_file(${src}/mdebug-rt.dynlist.in ${CMAKE_BINARY_DIR}/lib/mdebug-rt.dynlist @ONLY)
# mdebug-clang's linker script for the program's cold code.
configure_file(${src}/mdebug-layout.ld ${CMAKE_BINARY_DIR}/lib/mdebug-layout.ld COPYONLY)
foreach(pc mdebug mdebug-shared mdebug-access)
  configure_file(${src}/${pc}.pc.in ${CMAKE_BINARY_DIR}/${MDEBUG_PKGCONFIG_DIR}/${pc}.pc @ONLY)
endforeach()

install(FILES ${CMAKE_BINARY_DIR}/${MDEBUG_SHARE_DIR}/mdebug-toolchain.cmake
        DESTINATION ${MDEBUG_SHARE_DIR})
install(FILES ${CMAKE_BINARY_DIR}/${MDEBUG_CMAKE_DIR}/mdebugConfig.cmake
              ${CMAKE_BINARY_DIR}/${MDEBUG_CMAKE_DIR}/mdebugConfigVersion.cmake
        DESTINATION ${MDEBUG_CMAKE_DIR})
install(FILES ${CMAKE_BINARY_DIR}/lib/mdebug-rt.dynlist
              ${CMAKE_BINARY_DIR}/lib/mdebug-layout.ld DESTINATION lib)
install(FILES ${CMAKE_BINARY_DIR}/${MDEBUG_PKGCONFIG_DIR}/mdebug.pc
              ${CMAKE_BINARY_DIR}/${MDEBUG_PKGCONFIG_DIR}/mdebug-shared.pc
              ${CMAKE_BINARY_DIR}/${MDEBUG_PKGCONFIG_DIR}/mdebug-access.pc
        DESTINATION ${MDEBUG_PKGCONFIG_DIR})
unset(src)
unset(abi_def)
unset(abi_entries)
unset(MDEBUG_ABI_SYMBOLS)
