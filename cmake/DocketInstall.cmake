# `make install`: headers, libraries and a CMake package so that another project can
#   find_package(docket CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE docket::core)
include(CMakePackageConfigHelpers)

install(TARGETS docket_core EXPORT docketTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The inbox, outbox, event sourcing, saga and projection layers, the providers (each
# docket_<name> of src/providers/builtin_providers.cmake that is built, the provider
# kit they share and, where a document provider is built, its HTTP kit) and
# docket::stores, each its own target, so that a user links only what they use.
get_property(docket_providers GLOBAL PROPERTY DOCKET_PROVIDERS)
set(docket_installed docket_inbox docket_outbox docket_eventsourcing docket_sagas
  docket_projections docket_provider_kit docket_provider_http docket_stores)
foreach(name IN LISTS docket_providers)
  list(APPEND docket_installed docket_${name})
endforeach()
foreach(target IN LISTS docket_installed)
  if(TARGET ${target})
    install(TARGETS ${target} EXPORT docketTargets
      ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
      LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
      RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  endif()
endforeach()
# docketConfig.cmake finds what the installed targets link against: nlohmann_json for
# the inbox, and each built provider's packages (DOCKET_PROVIDER_PACKAGES).
if(TARGET docket_inbox)
  set(DOCKET_CONFIG_NEEDS_NLOHMANN_JSON ON)
else()
  set(DOCKET_CONFIG_NEEDS_NLOHMANN_JSON OFF)
endif()
get_property(DOCKET_CONFIG_PACKAGES GLOBAL PROPERTY DOCKET_PROVIDER_PACKAGES)
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
