# The docs' C++ cannot drift: every ```cpp block in README.md and docs/*.md must appear
# verbatim, as a contiguous run of whole lines (the block's leading and trailing blank
# lines ignored, an indented fence's indentation removed), in a file the build compiles:
# examples/**, tests/docs/*.cc (which wrap the snippets that are not whole programs in
# the declarations they need) or a provider's conformance fixture. Reports every block
# found nowhere, by file and line. README.md's first block must moreover be
# examples/getting_started/main.cc whole, byte for byte.
#
#   cmake -DDOCKET_SOURCE_DIR=<repository> -P tests/docs/check_snippets.cmake
#
# Invariant: a block passes only if some compiled file holds each of its lines, in order,
# with nothing between them; a snippet file is compiled by tests/docs/CMakeLists.txt.
cmake_minimum_required(VERSION 3.20)
if(NOT DOCKET_SOURCE_DIR OR NOT IS_DIRECTORY "${DOCKET_SOURCE_DIR}")
  message(FATAL_ERROR "check_snippets.cmake: pass -DDOCKET_SOURCE_DIR=<the repository's root>")
endif()

file(GLOB docket_snippet_docs RELATIVE "${DOCKET_SOURCE_DIR}" "${DOCKET_SOURCE_DIR}/README.md"
     "${DOCKET_SOURCE_DIR}/docs/*.md")
# Besides examples/ and tests/docs/: the providers' conformance fixtures, which
# docs/providers.md quotes to show how a provider joins the suites.
file(GLOB_RECURSE docket_snippet_sources "${DOCKET_SOURCE_DIR}/examples/*.cc"
     "${DOCKET_SOURCE_DIR}/examples/*.h" "${DOCKET_SOURCE_DIR}/tests/docs/*.cc"
     "${DOCKET_SOURCE_DIR}/src/providers/*/conformance/*.cc")

# Every compiled file's text, each framed by newlines so that a match starts and ends at
# line boundaries.
set(docket_snippet_texts "")
foreach(source IN LISTS docket_snippet_sources)
  file(READ "${source}" text)
  string(REPLACE "\r\n" "\n" text "${text}")
  string(APPEND docket_snippet_texts "\n${text}\n@end of file@")
endforeach()

set(docket_snippet_missing 0)
set(docket_snippet_readme_seen FALSE)
set(docket_snippet_checked 0)
foreach(doc IN LISTS docket_snippet_docs)
  file(READ "${DOCKET_SOURCE_DIR}/${doc}" text)
  string(REPLACE "\r\n" "\n" text "${text}")
  set(rest "\n${text}")
  set(line_base 0)  # lines of `doc` before `rest`
  while(TRUE)
    string(REGEX MATCH "\n([ ]*)```cpp[ ]*\n" fence "${rest}")
    if(NOT fence)
      break()
    endif()
    set(indent "${CMAKE_MATCH_1}")
    string(FIND "${rest}" "${fence}" at)
    string(SUBSTRING "${rest}" 0 ${at} before)
    string(REGEX MATCHALL "\n" newlines "${before}\n")
    list(LENGTH newlines block_line)
    math(EXPR block_line "${line_base} + ${block_line}")
    string(LENGTH "${fence}" fence_length)
    math(EXPR body_at "${at} + ${fence_length}")
    string(SUBSTRING "${rest}" ${body_at} -1 rest)
    # The block runs to the closing fence (at the same indentation or less).
    string(REGEX MATCH "(^|\n)[ ]*```" close "${rest}")
    if(NOT close)
      message(SEND_ERROR "${doc}:${block_line}: a ```cpp block is never closed")
      math(EXPR docket_snippet_missing "${docket_snippet_missing} + 1")
      break()
    endif()
    string(FIND "${rest}" "${close}" close_at)
    string(SUBSTRING "${rest}" 0 ${close_at} body)
    string(LENGTH "${close}" close_length)
    math(EXPR after "${close_at} + ${close_length}")
    string(SUBSTRING "${rest}" ${after} -1 rest)
    string(REGEX MATCHALL "\n" newlines "${fence}${body}${close}")
    list(LENGTH newlines consumed_lines)
    math(EXPR line_base "${block_line} + ${consumed_lines} - 1")
    # An indented fence's lines carry its indentation: drop it.
    if(NOT indent STREQUAL "")
      # (a newline before each line: CMake's ^ would match again where a replacement ended)
      string(REPLACE "\n${indent}" "\n" body "\n${body}")
      string(SUBSTRING "${body}" 1 -1 body)
    endif()
    string(REGEX REPLACE "^([ \t]*\n)+" "" body "${body}")
    string(REGEX REPLACE "(\n[ \t]*)+$" "" body "${body}")
    math(EXPR docket_snippet_checked "${docket_snippet_checked} + 1")
    # The README's first block is the getting-started program, whole: not a part of it.
    if(doc STREQUAL "README.md" AND NOT docket_snippet_readme_seen)
      set(docket_snippet_readme_seen TRUE)
      file(READ "${DOCKET_SOURCE_DIR}/examples/getting_started/main.cc" program)
      string(REGEX REPLACE "\n+$" "" program "${program}")
      if(NOT body STREQUAL program)
        message(SEND_ERROR "${doc}:${block_line}: the first ```cpp block must be "
          "examples/getting_started/main.cc byte for byte (that file is what `make test` "
          "runs); copy the one over the other")
        math(EXPR docket_snippet_missing "${docket_snippet_missing} + 1")
      endif()
    endif()
    if(body STREQUAL "")
      continue()
    endif()
    string(FIND "${docket_snippet_texts}" "\n${body}\n" found)
    if(found EQUAL -1)
      string(REGEX MATCH "^[^\n]*" first_line "${body}")
      message(SEND_ERROR "${doc}:${block_line}: this ```cpp block (starting `${first_line}`) "
        "is in no compiled file; copy it verbatim into examples/ or a tests/docs/*.cc file "
        "that wraps it, or make it match the code that is there")
      math(EXPR docket_snippet_missing "${docket_snippet_missing} + 1")
    endif()
  endwhile()
endforeach()

if(docket_snippet_missing GREATER 0)
  message(FATAL_ERROR "${docket_snippet_missing} of ${docket_snippet_checked} ```cpp blocks "
    "failed the check (listed above)")
endif()
message(STATUS "${docket_snippet_checked} ```cpp blocks checked, each in a compiled file")
