# Every built provider's conformance fixtures join the suites here: for each provider
# of builtin_providers.cmake's list that this build has (the DOCKET_PROVIDERS property
# src/providers fills), its src/providers/<name>/conformance/conformance.cmake is
# included, which names its files per suite with docket_conformance(). The fixtures
# register their cases themselves (fixture_registry.h), so no suite names a provider.
# Included by tests/CMakeLists.txt once the suites' targets exist.

# docket_conformance(<suite> <file>... [LINK <library>...]): adds a provider's files
# (paths relative to its conformance/ folder) to the suite's test executable, one of
# inbox, outbox, claim, eventsourcing (docket_<suite>_conformance), and links what they
# need beyond docket::stores. Test code only: never listed in a library target.
function(docket_conformance suite)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LINK")
  set(target docket_${suite}_conformance)
  if(NOT TARGET ${target})
    message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: docket_conformance(${suite} ...) names "
      "no conformance suite: use inbox, outbox, claim or eventsourcing")
  endif()
  list(TRANSFORM arg_UNPARSED_ARGUMENTS PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
  target_sources(${target} PRIVATE ${arg_UNPARSED_ARGUMENTS})
  if(arg_LINK)
    target_link_libraries(${target} PRIVATE ${arg_LINK})
  endif()
endfunction()

get_property(docket_conformance_providers GLOBAL PROPERTY DOCKET_PROVIDERS)
foreach(name IN LISTS docket_conformance_providers)
  set(fragment ${PROJECT_SOURCE_DIR}/src/providers/${name}/conformance/conformance.cmake)
  if(EXISTS ${fragment})
    include(${fragment})
  endif()
endforeach()
