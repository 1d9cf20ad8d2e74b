# Every tested provider's conformance fixtures join the suites here: for each provider
# of builtin_providers.cmake's list that this build has (the DOCKET_PROVIDERS property
# src/providers fills) and tests (DOCKET_TEST_PROVIDERS, tests/CMakeLists.txt), its
# src/providers/<name>/conformance/conformance.cmake is included, which names its
# files per suite with docket_conformance(). The fixtures
# register their cases themselves (fixture_registry.h), so no suite names a provider.
# Included by tests/CMakeLists.txt once the suites' targets exist.

# docket_conformance(<suite> <file>... [LINK <library>...]): adds a provider's files
# (paths relative to its conformance/ folder) to a suite's test executable and links
# what they need beyond docket::stores. The suites: inbox, outbox, claim and
# eventsourcing (docket_<suite>_conformance), checkpoint (in the inbox's binary), and
# sagas and projections (docket_saga_tests, docket_projection_tests: the coordinator
# and the feed consumer over JoinDatabases, built where two providers join an inbox's
# unit of work; files given to them where they are not built are left out), and tool
# (tool_test: the provider's scratch database, tests/support/scratch_database.h). Test
# code only: never listed in a library target.
function(docket_conformance suite)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "LINK")
  if(suite STREQUAL "sagas")
    set(target docket_saga_tests)
  elseif(suite STREQUAL "projections")
    set(target docket_projection_tests)
  elseif(suite STREQUAL "tool")
    set(target tool_test)  # scratch databases for the tool's tests on every provider
  elseif(suite STREQUAL "checkpoint")
    set(target docket_inbox_conformance)  # the checkpoint suite shares the inbox's binary
  elseif(suite MATCHES "^(inbox|outbox|claim|eventsourcing)$")
    set(target docket_${suite}_conformance)
  else()
    message(FATAL_ERROR "${CMAKE_CURRENT_LIST_FILE}: docket_conformance(${suite} ...) names "
      "no suite: use inbox, checkpoint, outbox, claim, eventsourcing, sagas, projections "
      "or tool")
  endif()
  if(NOT TARGET ${target})
    return()
  endif()
  list(TRANSFORM arg_UNPARSED_ARGUMENTS PREPEND ${CMAKE_CURRENT_LIST_DIR}/)
  target_sources(${target} PRIVATE ${arg_UNPARSED_ARGUMENTS})
  if(arg_LINK)
    target_link_libraries(${target} PRIVATE ${arg_LINK})
  endif()
endfunction()

foreach(name IN LISTS docket_tested_providers)  # tests/CMakeLists.txt
  set(fragment ${PROJECT_SOURCE_DIR}/src/providers/${name}/conformance/conformance.cmake)
  if(EXISTS ${fragment})
    include(${fragment})
  endif()
endforeach()
docket_link_join_support()

# The suites' coverage tests (fixture_registry.h) leave the providers built but not
# tested here (DOCKET_TEST_PROVIDERS, tests/CMakeLists.txt) to the build that tests them.
set(docket_tested_elsewhere "")
foreach(name IN LISTS docket_built_providers)
  if(NOT name IN_LIST docket_tested_providers)
    string(APPEND docket_tested_elsewhere "${name} ")
  endif()
endforeach()
if(NOT docket_tested_elsewhere STREQUAL "")
  foreach(suite inbox outbox claim eventsourcing)
    if(TARGET docket_${suite}_conformance)
      target_compile_definitions(docket_${suite}_conformance
        PRIVATE DOCKET_PROVIDERS_TESTED_ELSEWHERE="${docket_tested_elsewhere}")
    endif()
  endforeach()
endif()
