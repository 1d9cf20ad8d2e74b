# The providers whose stores join an inbox's unit of work, for the suites typed over
# them (conformance/eventsourcing/join_databases.h: the handler tests of the
# eventsourcing suite, tests/sagas and tests/projections). A built provider joins by
# having src/providers/<name>/conformance/<name>_join_database.h, which defines
# docket::<name>::conformance::JoinDatabase and ForeignStores
# (docs/providers.md says what each holds); no list here or in a suite names it.
# Each provider's refusals of a transaction of another provider are tested against
# the ForeignStores of the first other joining provider of builtin_providers.cmake's
# list that defines them (a provider's <name>_join_database.h may leave them out). Included by tests/CMakeLists.txt before the suite folders.

set(DOCKET_JOIN_PROVIDERS "")
set(docket_foreign_providers "")  # those whose <name>_join_database.h defines ForeignStores
foreach(name IN LISTS docket_tested_providers)  # tests/CMakeLists.txt
  set(join_header ${PROJECT_SOURCE_DIR}/src/providers/${name}/conformance/${name}_join_database.h)
  if(EXISTS ${join_header})
    list(APPEND DOCKET_JOIN_PROVIDERS ${name})
    file(READ ${join_header} join_text)
    string(FIND "${join_text}" "struct ForeignStores" has_foreign)
    if(NOT has_foreign EQUAL -1)
      list(APPEND docket_foreign_providers ${name})
    endif()
  endif()
endforeach()
list(LENGTH DOCKET_JOIN_PROVIDERS DOCKET_JOIN_PROVIDER_COUNT)

set(DOCKET_JOIN_INCLUDES "")
set(DOCKET_JOIN_CASES "")
foreach(name IN LISTS DOCKET_JOIN_PROVIDERS)
  set(foreign "")
  foreach(other IN LISTS docket_foreign_providers)
    if(NOT other STREQUAL name AND foreign STREQUAL "")
      set(foreign ${other})
    endif()
  endforeach()
  if(foreign STREQUAL "")
    break()  # one joining provider: nothing to pair it with, the suites are not built
  endif()
  string(APPEND DOCKET_JOIN_INCLUDES
    "#include \"providers/${name}/conformance/${name}_join_database.h\"\n")
  if(NOT DOCKET_JOIN_CASES STREQUAL "")
    string(APPEND DOCKET_JOIN_CASES ",\n")
  endif()
  string(APPEND DOCKET_JOIN_CASES "    JoinCase<::docket::${name}::conformance::JoinDatabase, "
    "::docket::${foreign}::conformance::ForeignStores>")
endforeach()
set(docket_join_generated ${PROJECT_BINARY_DIR}/tests/generated)
configure_file(${CMAKE_CURRENT_LIST_DIR}/eventsourcing/join_database_list.h.in
  ${docket_join_generated}/conformance/eventsourcing/join_database_list.h @ONLY)

# docket_join_suite(<target>): lets a test target include join_databases.h and link
# every provider's stores. The test support library a provider's <name>_join_database.h may
# need (docket_test_<name>, defined in tests/support or by the provider's own
# conformance.cmake) is linked once every fragment is read (docket_link_join_support,
# provider_fixtures.cmake).
function(docket_join_suite target)
  target_include_directories(${target} PRIVATE ${PROJECT_SOURCE_DIR}/tests
    ${PROJECT_SOURCE_DIR}/src ${docket_join_generated})
  target_link_libraries(${target} PRIVATE docket::stores)
  set_property(GLOBAL APPEND PROPERTY DOCKET_JOIN_SUITES ${target})
endfunction()

function(docket_link_join_support)
  get_property(suites GLOBAL PROPERTY DOCKET_JOIN_SUITES)
  foreach(target IN LISTS suites)
    foreach(name IN LISTS DOCKET_JOIN_PROVIDERS)
      if(TARGET docket_test_${name})
        target_link_libraries(${target} PRIVATE docket_test_${name})
      endif()
    endforeach()
  endforeach()
endfunction()
