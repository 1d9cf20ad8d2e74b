# Warning and sanitizer flags shared by every docket target.
add_library(docket_build_flags INTERFACE)
target_compile_options(docket_build_flags INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wimplicit-fallthrough -Wcast-align -Wnull-dereference
  $<$<BOOL:${DOCKET_WERROR}>:-Werror>)
# GCC 12 at -O3 reports warnings in correct code that a Release build with warnings as
# errors would refuse: -Wrestrict on std::string's operator+ with a short literal ("'" +
# text: "accessing 9223372036854775810 or more bytes", GCC bug 105329) and
# -Wmaybe-uninitialized on braced lists of structs holding strings. Both are off for
# GCC 12's Release builds alone; the -O2 trees make test builds, and every other
# compiler, keep them.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 12
   AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(docket_build_flags INTERFACE
    $<$<CONFIG:Release>:-Wno-restrict -Wno-maybe-uninitialized>)
endif()
if(DOCKET_SANITIZE)
  target_compile_options(docket_build_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(docket_build_flags INTERFACE -fsanitize=address,undefined)
endif()

# Applies the flags to a target without exporting them to users of an installed docket.
function(docket_target_warnings target)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:docket_build_flags>)
endfunction()

# Test code (the suites, their support and the examples that run as tests) compiles for
# build speed: in the optimised build types it gets -O1 and line tables only (-g1), while
# the library under test keeps the build type's flags (-O2 -g). GoogleTest's templates
# make the suites most of a build: the event sourcing suite's largest batch took 26.5 s
# of CPU at -O2 -g and 13.5 s at -O1 -g1. Options added here follow the build type's
# in a compile line, so they win. Call in a folder's CMakeLists.txt before its targets.
macro(docket_compile_as_test_code)
  add_compile_options($<$<CONFIG:RelWithDebInfo,Release,MinSizeRel>:-O1>
                      $<$<CONFIG:RelWithDebInfo>:-g1>)
endmacro()
