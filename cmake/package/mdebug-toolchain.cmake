# mdebug-toolchain.cmake: builds a whole CMake project instrumented by mdebug.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/mdebug/mdebug-toolchain.cmake ...
#
# C and C++ are compiled and linked by mdebug-clang and mdebug-clang++ of the
# same tree (this file sits in <prefix>/share/mdebug, in the build tree and
# in an install alike), which add the plugin when compiling and the runtime
# when linking. -DMDEBUG_CHECK_ACCESS=ON checks heap accesses too
# (-fmdebug-check-access). Sets the compilers (and that flag) only;
# everything else is the project's.
get_filename_component(_mdebug_prefix "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(CMAKE_C_COMPILER "${_mdebug_prefix}/bin/mdebug-clang")
set(CMAKE_CXX_COMPILER "${_mdebug_prefix}/bin/mdebug-clang++")
# CMake reads a toolchain file more than once in a configure: append once.
if(MDEBUG_CHECK_ACCESS AND NOT " ${CMAKE_C_FLAGS_INIT} " MATCHES " -fmdebug-check-access ")
  string(APPEND CMAKE_C_FLAGS_INIT " -fmdebug-check-access")
  string(APPEND CMAKE_CXX_FLAGS_INIT " -fmdebug-check-access")
endif()
# find_package(mdebug CONFIG) finds this tree too, for mdebug_instrument()
# or the mdebug_* variables.
# (list(FIND), not IN_LIST: a project's old cmake_minimum_required leaves
# IN_LIST unknown here.)
list(FIND CMAKE_PREFIX_PATH "${_mdebug_prefix}" _mdebug_found)
if(_mdebug_found EQUAL -1)
  list(APPEND CMAKE_PREFIX_PATH "${_mdebug_prefix}")
endif()
unset(_mdebug_found)
unset(_mdebug_prefix)
