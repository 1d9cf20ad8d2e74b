# One compile-fail case (tests/compile_fail/CMakeLists.txt): compiles SOURCE with
# COMPILER (-fsyntax-only, FLAGS) and passes when
#   EXPECT is empty:  it compiles (the control case);
#   otherwise:        it fails, and the compiler's first error line contains EXPECT,
#                     so the library's own message is what a user reads first.
cmake_minimum_required(VERSION 3.25)
separate_arguments(flags UNIX_COMMAND "${FLAGS}")
execute_process(
  COMMAND ${COMPILER} -std=c++20 -fsyntax-only ${flags} ${SOURCE}
  RESULT_VARIABLE status
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
string(APPEND out "${err}")
if(EXPECT STREQUAL "")
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${SOURCE} should compile and did not:\n${out}")
  endif()
  return()
endif()
if(status EQUAL 0)
  message(FATAL_ERROR "${SOURCE} compiled; it should have failed with: ${EXPECT}")
endif()
string(REGEX MATCH "[^\n]*error:[^\n]*" first "${out}")
string(FIND "${first}" "${EXPECT}" at)
if(at EQUAL -1)
  message(FATAL_ERROR "${SOURCE}: the first error is not the library's message.\n"
    "expected it to contain: ${EXPECT}\nfirst error: ${first}\n\nwhole output:\n${out}")
endif()
message(STATUS "${SOURCE}: first error: ${first}")
