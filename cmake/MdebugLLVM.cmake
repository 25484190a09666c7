# Find LLVM (and Clang's headers, for the -fplugin front) and refuse early
# when the version is outside what the pass supports.
set(MDEBUG_LLVM_MIN 14)
set(MDEBUG_LLVM_MAX 19)

if(NOT LLVM_DIR)
  find_program(MDEBUG_LLVM_CONFIG NAMES llvm-config-14 llvm-config)
  if(MDEBUG_LLVM_CONFIG)
    execute_process(COMMAND ${MDEBUG_LLVM_CONFIG} --cmakedir
                    OUTPUT_VARIABLE LLVM_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
  endif()
endif()
find_package(LLVM CONFIG REQUIRED)

if(LLVM_VERSION_MAJOR LESS MDEBUG_LLVM_MIN OR LLVM_VERSION_MAJOR GREATER MDEBUG_LLVM_MAX)
  message(FATAL_ERROR
    "mdebug supports LLVM ${MDEBUG_LLVM_MIN} to ${MDEBUG_LLVM_MAX}; found ${LLVM_PACKAGE_VERSION} "
    "in ${LLVM_DIR}. Point -DLLVM_DIR= at a supported LLVM's lib/cmake/llvm.")
endif()
message(STATUS "mdebug: LLVM ${LLVM_PACKAGE_VERSION} from ${LLVM_DIR}")

set(MDEBUG_LLVM_PREFIX "${LLVM_TOOLS_BINARY_DIR}/..")
get_filename_component(MDEBUG_LLVM_PREFIX "${MDEBUG_LLVM_PREFIX}" ABSOLUTE)

# The -fplugin front needs Clang's headers (Debian: libclang-N-dev).
find_path(MDEBUG_CLANG_INCLUDE clang/Frontend/FrontendPluginRegistry.h
          HINTS ${LLVM_INCLUDE_DIRS} ${MDEBUG_LLVM_PREFIX}/include NO_DEFAULT_PATH)
if(NOT MDEBUG_CLANG_INCLUDE)
  message(FATAL_ERROR
    "Clang headers not found next to LLVM ${LLVM_PACKAGE_VERSION} (${LLVM_INCLUDE_DIRS}). "
    "On Debian: apt-get install libclang-${LLVM_VERSION_MAJOR}-dev")
endif()

# The compiler mdebug-clang drives, and the tools the tests use: all of the
# same LLVM, so the plugin is loaded into the clang it was built for.
find_program(MDEBUG_CLANG clang HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(MDEBUG_CLANGXX clang++ HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(MDEBUG_OPT opt HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(MDEBUG_FILECHECK FileCheck HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH REQUIRED)
find_program(MDEBUG_NOT not HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
if(NOT LLVM_EXTERNAL_LIT)
  find_program(LLVM_EXTERNAL_LIT NAMES llvm-lit lit lit.py
               HINTS ${LLVM_TOOLS_BINARY_DIR} ${MDEBUG_LLVM_PREFIX}/build/utils/lit)
endif()
