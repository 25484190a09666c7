# Warning flags for our own code (not applied to test programs).
set(MDEBUG_C_FLAGS -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes)
set(MDEBUG_CXX_FLAGS -Wall -Wextra -Wno-unused-parameter)
