# mdebug-toolchain.cmake: builds a whole CMake project instrumented by mdebug.
#
#   cmake -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/mdebug/mdebug-toolchain.cmake ...
#
# C and C++ are compiled and linked by mdebug-clang and mdebug-clang++ of the
# same tree (this file sits in <prefix>/share/mdebug, in the build tree and
# in an install alike), which add the plugin when compiling and the runtime
# when linking. -DMDEBUG_CHECK_ACCESS=ON checks heap accesses too
# (-fmdebug-check-access), also when given to an existing build directory.
# Sets the compilers (and that flag) only; everything else is the project's.
get_filename_component(_mdebug_prefix "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
set(CMAKE_C_COMPILER "${_mdebug_prefix}/bin/mdebug-clang")
set(CMAKE_CXX_COMPILER "${_mdebug_prefix}/bin/mdebug-clang++")
# The flag is a compile option of the top directory, not a part of
# CMAKE_<LANG>_FLAGS_INIT: those only seed the cache on the first configure,
# so a -DCMAKE_C_FLAGS=... of the user's, or the option turned on in an
# existing build directory, lost it and the program built unchecked. CMake
# includes this file at every configure (CMakeSystem.cmake) and in its
# try_compile projects; a directory property is set again each time, once.
if(MDEBUG_CHECK_ACCESS)
  get_directory_property(_mdebug_options COMPILE_OPTIONS)
  set(_mdebug_flag "$<$<COMPILE_LANGUAGE:C,CXX>:-fmdebug-check-access>")
  list(FIND _mdebug_options "${_mdebug_flag}" _mdebug_found)
  if(_mdebug_found EQUAL -1)
    add_compile_options("${_mdebug_flag}")
  endif()
  unset(_mdebug_flag)
  unset(_mdebug_options)
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
