# `make install`: headers, libraries and a CMake package so that another project can
#   find_package(docket CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE docket::core)
include(CMakePackageConfigHelpers)

install(TARGETS docket_core EXPORT docketTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The inbox, outbox, event sourcing, saga and projection layers and their providers,
# each its own target (docket::inbox, docket::outbox, docket::eventsourcing,
# docket::sagas, docket::projections, docket::memory, docket::sqlite, docket::postgres,
# docket::stores), so that a user links only what they use.
foreach(target docket_inbox docket_outbox docket_eventsourcing docket_sagas docket_projections
               docket_memory docket_sqlite docket_postgres docket_stores)
  if(TARGET ${target})
    install(TARGETS ${target} EXPORT docketTargets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
# docketConfig.cmake finds what the installed targets link against.
if(TARGET docket_inbox)
  set(DOCKET_CONFIG_NEEDS_NLOHMANN_JSON ON)
else()
  set(DOCKET_CONFIG_NEEDS_NLOHMANN_JSON OFF)
endif()
if(TARGET docket_sqlite)
  set(DOCKET_CONFIG_NEEDS_SQLITE3 ON)
else()
  set(DOCKET_CONFIG_NEEDS_SQLITE3 OFF)
endif()
if(TARGET docket_postgres)
  set(DOCKET_CONFIG_NEEDS_POSTGRESQL ON)
else()
  set(DOCKET_CONFIG_NEEDS_POSTGRESQL OFF)
endif()
install(DIRECTORY include/docket DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
if(TARGET docket)
  install(TARGETS docket RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

set(docket_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/docket)
install(EXPORT docketTargets NAMESPACE docket:: DESTINATION ${docket_cmake_dir})
configure_package_config_file(cmake/docketConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/docketConfig.cmake INSTALL_DESTINATION ${docket_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/docketConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/docketConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/docketConfigVersion.cmake DESTINATION ${docket_cmake_dir})
