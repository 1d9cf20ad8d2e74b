cmake_minimum_required(VERSION 3.25)
# The rules of the tree's shape that DESIGN.md states and no compiler checks, each a
# test of its own (`-DRULE=<name>`):
#
#   no_detail_in_public_api  no public header names an implementation namespace
#                            (`detail`): what a provider's code needs from a public type
#                            it reaches through an access class declared in src/
#   named_for_their_folder   every file of src/providers/<name>/ and src/transports/<name>/
#                            (and their subfolders) is named <name>_*, but CMake files
#   docket_h_includes_the_api  docket/docket.h includes every header of the
#                            application-facing layers (core, inbox, eventsourcing,
#                            transports, outbox, sagas, projections, stores)
#   headers_state_thread_safety  every public header says, in a "Thread-safety:" line,
#                            what its types allow across threads
#   tools_name_no_provider   tools/ and examples/ name no provider: no DOCKET_HAVE_*
#                            switch and no include of a provider's folder (the
#                            registry, src/providers/registry.h, names none); a
#                            provider's parts of the tool register from its own folder
#
# Run as `cmake -DSOURCE_DIR=... -DRULE=... -P tree_rules.cmake`; prints every file that
# breaks the rule, with the line, and fails if there is one.

set(violations "")

# Appends to `violations` each line of the files matching `globs` that matches `regex`.
function(find_lines regex)
  set(found "")
  foreach(glob IN LISTS ARGN)
    file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/${glob})
    foreach(file IN LISTS files)
      file(STRINGS ${SOURCE_DIR}/${file} lines REGEX "${regex}")
      foreach(line IN LISTS lines)
        string(STRIP "${line}" line)
        string(APPEND found "  ${file}: ${line}\n")
      endforeach()
    endforeach()
  endforeach()
  set(violations "${violations}${found}" PARENT_SCOPE)
endfunction()

if(RULE STREQUAL "no_detail_in_public_api")
  find_lines("(^|[^A-Za-z0-9_])detail(::|[ ]*\\{)" include/docket/*.h)
elseif(RULE STREQUAL "named_for_their_folder")
  foreach(layer providers transports)
    file(GLOB names LIST_DIRECTORIES true RELATIVE ${SOURCE_DIR}/src/${layer}
         ${SOURCE_DIR}/src/${layer}/*)
    foreach(name IN LISTS names)
      if(NOT IS_DIRECTORY ${SOURCE_DIR}/src/${layer}/${name} OR name STREQUAL "kit")
        continue()
      endif()
      file(GLOB_RECURSE files RELATIVE ${SOURCE_DIR}/src/${layer}/${name}
           ${SOURCE_DIR}/src/${layer}/${name}/*)
      foreach(file IN LISTS files)
        get_filename_component(base ${file} NAME)
        if(base STREQUAL "CMakeLists.txt" OR base MATCHES "\\.cmake$")
          continue()
        endif()
        if(NOT base MATCHES "^${name}_")
          string(APPEND violations "  src/${layer}/${name}/${file}: not named ${name}_*\n")
        endif()
      endforeach()
    endforeach()
  endforeach()
elseif(RULE STREQUAL "docket_h_includes_the_api")
  file(STRINGS ${SOURCE_DIR}/include/docket/docket.h included REGEX "^#include \"")
  foreach(layer core inbox eventsourcing transports outbox sagas projections stores)
    file(GLOB headers RELATIVE ${SOURCE_DIR}/include ${SOURCE_DIR}/include/docket/${layer}/*.h)
    foreach(header IN LISTS headers)
      if(NOT "#include \"${header}\"" IN_LIST included)
        string(APPEND violations "  include/docket/docket.h: does not include ${header}\n")
      endif()
    endforeach()
  endforeach()
elseif(RULE STREQUAL "headers_state_thread_safety")
  file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR} ${SOURCE_DIR}/include/docket/*.h)
  foreach(header IN LISTS headers)
    file(STRINGS ${SOURCE_DIR}/${header} stated REGEX "^// Thread-safety:")
    if(NOT stated)
      string(APPEND violations "  ${header}: no \"// Thread-safety:\" line\n")
    endif()
  endforeach()
elseif(RULE STREQUAL "tools_name_no_provider")
  find_lines("DOCKET_HAVE_|#include \"providers/[^/\"]+/" tools/*.h tools/*.cc tools/CMakeLists.txt
             examples/*.h examples/*.cc examples/CMakeLists.txt)
else()
  message(FATAL_ERROR "tree_rules: RULE='${RULE}' is none of no_detail_in_public_api, "
    "named_for_their_folder, docket_h_includes_the_api, headers_state_thread_safety, "
    "tools_name_no_provider")
endif()

if(violations)
  message(FATAL_ERROR "tree_rules: ${RULE} is broken by:\n${violations}")
endif()
message(STATUS "tree_rules: ${RULE} holds")
