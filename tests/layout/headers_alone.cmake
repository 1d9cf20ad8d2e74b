cmake_minimum_required(VERSION 3.25)
# Checks that every public header reads alone: each compiles as the only include of a
# translation unit (syntax only, warnings as errors), so that no header leans on what
# another happened to include before it.
#
# Run as `cmake -DSOURCE_DIR=... -DCXX=... -P headers_alone.cmake`.

file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/docket/*.h)
if(NOT headers)
  message(FATAL_ERROR "headers_alone: no headers under ${SOURCE_DIR}/include/docket")
endif()
set(failures "")
foreach(header IN LISTS headers)
  file(WRITE ${WORK_DIR}/header_alone.cc "#include \"${header}\"\n")
  execute_process(
    COMMAND ${CXX} -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I${SOURCE_DIR}/include
            ${WORK_DIR}/header_alone.cc
    RESULT_VARIABLE status
    ERROR_VARIABLE errors)
  if(NOT status EQUAL 0)
    string(APPEND failures "  ${header}:\n${errors}\n")
  endif()
endforeach()
if(failures)
  message(FATAL_ERROR "headers_alone: public headers that do not compile alone:\n${failures}")
endif()
list(LENGTH headers count)
message(STATUS "headers_alone: ${count} public headers, each compiling alone")
