# Install rules: headers, static libraries, the tool, a CMake package and one
# pkg-config file per component, so that another project can write
#   find_package(docket CONFIG REQUIRED COMPONENTS sqlite)
#   target_link_libraries(app PRIVATE docket::sqlite)
# or
#   c++ -std=c++20 app.cc $(pkg-config --cflags --libs docket-sqlite)
# (docs/packaging.md). A component is one library target docket_<name>, exported as
# docket::<name>, in its own export file docket-<name>-targets.cmake, so that
# docketConfig.cmake loads, and finds the packages of, only the components asked for
# and those they link.
#
# What a component needs (other components, outside packages) is read from its
# target's link libraries, not written down a second time here: a provider that
# starts linking a new package either maps it below (docket_external_package) or
# fails this configure step, never an installed user's link.

include(CMakePackageConfigHelpers)

# Install rules only when docket is the project being built: a project that adds
# docket's source tree with add_subdirectory()/FetchContent links its targets and does
# not install docket's files with its own unless it asks to.
option(DOCKET_INSTALL "Generate docket's install rules (headers, libraries, CMake and pkg-config files, the tool)"
  ${PROJECT_IS_TOP_LEVEL})
if(NOT DOCKET_INSTALL)
  return()
endif()

# Every component there can be, each after the components it links (so that loading
# them in this order defines each imported target after those it names): a broker
# transport after the providers, since one may share a provider's client (Redis Streams
# uses the Redis provider's connection). provider_kit
# and provider_http are what the providers share: installed for the providers' sake,
# never something an application asks for by name. The providers are those
# src/providers/builtin_providers.cmake built.
get_property(docket_built_providers GLOBAL PROPERTY DOCKET_PROVIDERS)
get_property(docket_built_transports GLOBAL PROPERTY DOCKET_TRANSPORTS)
list(TRANSFORM docket_built_transports PREPEND transport_ OUTPUT_VARIABLE docket_transport_components)
set(docket_internal_components provider_kit provider_http)
set(docket_components "")
foreach(name IN ITEMS core inbox transports outbox eventsourcing sagas projections prometheus
                      ${docket_internal_components} ${docket_built_providers}
                      ${docket_transport_components} stores brokers)
  if(TARGET docket_${name})
    list(APPEND docket_components ${name})
  endif()
endforeach()
set(docket_public_components ${docket_components})
list(REMOVE_ITEM docket_public_components ${docket_internal_components})

# The outside packages docket's targets link, by imported target: the CMake package
# docketConfig.cmake finds (and the version it asks for) and the pkg-config module.
function(docket_external_package imported cmake_package cmake_version pc_module)
  string(MAKE_C_IDENTIFIER "${imported}" key)
  set_property(GLOBAL PROPERTY DOCKET_EXTERNAL_${key} "${cmake_package};${cmake_version};${pc_module}")
  set_property(GLOBAL APPEND PROPERTY DOCKET_EXTERNAL_KEYS ${key})
endfunction()
docket_external_package(SQLite::SQLite3 SQLite3 "" sqlite3)
docket_external_package(PostgreSQL::PostgreSQL PostgreSQL "" libpq)
docket_external_package(CURL::libcurl CURL "" libcurl)
docket_external_package(OpenSSL::Crypto OpenSSL "" libcrypto)
docket_external_package(OpenSSL::SSL OpenSSL "" libssl)
docket_external_package(nlohmann_json::nlohmann_json nlohmann_json 3 nlohmann_json)
docket_external_package(rabbitmq::rabbitmq rabbitmq-c "" librabbitmq)
docket_external_package(prometheus-cpp::core prometheus-cpp "" prometheus-cpp-core)
# A package found through pkg-config alone (its CMake package broken or missing) is
# named pkgconfig+<module>+<prefix>: docketConfig.cmake runs
# pkg_check_modules(<prefix> IMPORTED_TARGET <module>), which defines PkgConfig::<prefix>.
# Debian's cnats CMake package names a libnats_static.a that libnats-dev does not ship.
docket_external_package(PkgConfig::LIBNATS pkgconfig+libnats+LIBNATS "" libnats)
docket_external_package(PkgConfig::HIREDIS pkgconfig+hiredis+HIREDIS "" hiredis)

# docket_component_links(<component>): reads docket_<component>'s link libraries into
# DOCKET_<component>_links (components it links, with ":private" appended to those
# only its link step needs, i.e. $<LINK_ONLY:...>) and DOCKET_<component>_externals
# (imported targets, likewise marked). Build-only items ($<BUILD_INTERFACE:...>, the
# warning flags) are skipped. Anything else is an error naming the target and item.
function(docket_component_links component)
  get_target_property(direct docket_${component} LINK_LIBRARIES)
  get_target_property(interface docket_${component} INTERFACE_LINK_LIBRARIES)
  set(links "")
  set(externals "")
  foreach(item IN LISTS direct interface)
    if(item MATCHES "-NOTFOUND$" OR item STREQUAL "")
      continue()
    endif()
    # A PRIVATE dependency of a static library is exported as $<LINK_ONLY:...>; in
    # LINK_LIBRARIES alone it is private too.
    set(suffix "")
    if(item MATCHES "^\\$<LINK_ONLY:(.*)>$")
      set(item ${CMAKE_MATCH_1})
      set(suffix ":private")
    elseif(NOT item IN_LIST interface)
      set(suffix ":private")
    endif()
    if(item MATCHES "^\\$<BUILD_INTERFACE:")
      continue()
    endif()
    if(item MATCHES "^docket(::|_)(.+)$" AND CMAKE_MATCH_2 IN_LIST docket_components)
      list(APPEND links ${CMAKE_MATCH_2}${suffix})
    elseif(item MATCHES "::")
      string(MAKE_C_IDENTIFIER "${item}" key)
      get_property(known GLOBAL PROPERTY DOCKET_EXTERNAL_${key} SET)
      if(NOT known)
        message(FATAL_ERROR "docket_${component} links ${item}, which cmake/DocketInstall.cmake "
          "does not map to a CMake package and a pkg-config module (docket_external_package)")
      endif()
      list(APPEND externals ${item}${suffix})
    else()
      message(FATAL_ERROR "docket_${component} links ${item}, which is neither an installed "
        "docket component (${docket_components}) nor an imported target an installed user "
        "can find")
    endif()
  endforeach()
  # Listed both ways (public in one property, private in the other): public wins.
  foreach(kind IN ITEMS links externals)
    set(kept "")
    foreach(entry IN LISTS ${kind})
      string(REPLACE ":private" "" bare "${entry}")
      if(bare IN_LIST ${kind})
        set(entry ${bare})
      endif()
      list(APPEND kept ${entry})
    endforeach()
    list(REMOVE_DUPLICATES kept)
    set(DOCKET_${component}_${kind} ${kept} PARENT_SCOPE)
  endforeach()
endfunction()

foreach(component IN LISTS docket_components)
  docket_component_links(${component})
endforeach()

# The transitive closure of each component, in docket_components' order (which puts
# every component after those it links), and the outside CMake packages of that closure.
foreach(component IN LISTS docket_components)
  set(needs ${component})
  set(pending ${component})
  while(pending)
    list(POP_FRONT pending current)
    foreach(entry IN LISTS DOCKET_${current}_links)
      string(REPLACE ":private" "" dep "${entry}")
      if(NOT dep IN_LIST needs)
        list(APPEND needs ${dep})
        list(APPEND pending ${dep})
      endif()
    endforeach()
  endwhile()
  set(DOCKET_${component}_closure "")
  set(DOCKET_${component}_packages "")
  foreach(candidate IN LISTS docket_components)
    if(candidate IN_LIST needs)
      list(APPEND DOCKET_${component}_closure ${candidate})
      foreach(entry IN LISTS DOCKET_${candidate}_externals)
        string(REPLACE ":private" "" imported "${entry}")
        string(MAKE_C_IDENTIFIER "${imported}" key)
        get_property(external GLOBAL PROPERTY DOCKET_EXTERNAL_${key})
        list(GET external 0 package)
        list(APPEND DOCKET_${component}_packages ${package})
      endforeach()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES DOCKET_${component}_packages)
endforeach()

# docket_components' order holds: a component that linked one listed after it would be
# loaded before its dependency, which the exported target files forbid.
foreach(component IN LISTS docket_components)
  list(FIND docket_components ${component} position)
  foreach(entry IN LISTS DOCKET_${component}_links)
    string(REPLACE ":private" "" dep "${entry}")
    list(FIND docket_components ${dep} dep_position)
    if(dep_position GREATER position)
      message(FATAL_ERROR "docket_${component} links docket_${dep}, listed after it in "
        "cmake/DocketInstall.cmake's component order")
    endif()
  endforeach()
endforeach()

set(docket_cmake_dir ${CMAKE_INSTALL_LIBDIR}/cmake/docket)
foreach(component IN LISTS docket_components)
  install(TARGETS docket_${component} EXPORT docket-${component}-targets
    ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
    LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
    RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  install(EXPORT docket-${component}-targets NAMESPACE docket::
    FILE docket-${component}-targets.cmake DESTINATION ${docket_cmake_dir})
endforeach()
if(TARGET docket)
  install(TARGETS docket RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
  # The tree `make run` builds (the tool alone) is an installable tree: building the
  # tool builds every library installed beside it, the few it does not link (sagas,
  # projections) included, so `cmake --install` never meets a library that was not built.
  foreach(component IN LISTS docket_components)
    add_dependencies(docket docket_${component})
  endforeach()
endif()
# What `cmake --install` installs, and nothing else (no test, no benchmark): `make
# install` builds this target, also in a libraries-only tree (DOCKET_BUILD_TOOL=OFF).
add_custom_target(docket_installable)
foreach(component IN LISTS docket_components)
  add_dependencies(docket_installable docket_${component})
endforeach()
if(TARGET docket)
  add_dependencies(docket_installable docket)
endif()

# Headers: every layer folder of include/docket/ and docket.h; a provider's folder
# (include/docket/<provider>/, a folder of src/providers/ too) or a broker transport's
# (include/docket/<transport>/, a folder of src/transports/ too) only when it is built,
# and prometheus/ only with docket::prometheus,
# so that no installed header names a library the install lacks.
file(GLOB docket_header_entries RELATIVE ${PROJECT_SOURCE_DIR}/include/docket
  ${PROJECT_SOURCE_DIR}/include/docket/*)
foreach(entry IN LISTS docket_header_entries)
  set(path ${PROJECT_SOURCE_DIR}/include/docket/${entry})
  if(NOT IS_DIRECTORY ${path})
    install(FILES ${path} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/docket)
  elseif(entry STREQUAL "prometheus" AND NOT TARGET docket_prometheus)
    # docket::prometheus is left out (DOCKET_PROMETHEUS OFF): so are its headers.
  elseif((NOT EXISTS ${PROJECT_SOURCE_DIR}/src/providers/${entry}/CMakeLists.txt
          OR entry IN_LIST docket_built_providers)
         AND (NOT EXISTS ${PROJECT_SOURCE_DIR}/src/transports/${entry}/CMakeLists.txt
              OR entry IN_LIST docket_built_transports))
    install(DIRECTORY ${path} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/docket)
  endif()
endforeach()

# docketConfig.cmake: the component table it reads (cmake/docketConfig.cmake.in).
list(JOIN docket_components " " components)
list(JOIN docket_public_components " " public_components)
set(DOCKET_CONFIG_COMPONENT_TABLE
  "set(_docket_components ${components})\nset(_docket_public_components ${public_components})\n")
foreach(component IN LISTS docket_components)
  list(JOIN DOCKET_${component}_closure " " closure)
  list(JOIN DOCKET_${component}_packages " " packages)
  string(APPEND DOCKET_CONFIG_COMPONENT_TABLE
    "set(_docket_needs_${component} ${closure})\n"
    "set(_docket_packages_${component} ${packages})\n")
endforeach()
get_property(docket_external_keys GLOBAL PROPERTY DOCKET_EXTERNAL_KEYS)
foreach(key IN LISTS docket_external_keys)
  get_property(external GLOBAL PROPERTY DOCKET_EXTERNAL_${key})
  list(GET external 0 package)
  list(GET external 1 version)
  if(version)
    string(APPEND DOCKET_CONFIG_COMPONENT_TABLE "set(_docket_version_of_${package} ${version})\n")
  endif()
endforeach()
configure_package_config_file(cmake/docketConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/docketConfig.cmake INSTALL_DESTINATION ${docket_cmake_dir})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/docketConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/docketConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/docketConfigVersion.cmake DESTINATION ${docket_cmake_dir})

# pkg-config: docket-<component>.pc (underscores as dashes: docket-provider-kit.pc).
# Libs is the component's own library; what it links comes through Requires, so that
# pkg-config puts every library after those that use it. The libraries are static
# archives, whose users link everything they link: a private dependency is then in
# Requires too, and only in Requires.private for a shared library.
# prefix= is written at install time, so that `cmake --install --prefix` and DESTDIR
# installs (the Debian package) each get the prefix they install into.
set(docket_pc_dir ${CMAKE_CURRENT_BINARY_DIR}/pkgconfig)
foreach(component IN LISTS docket_components)
  string(REPLACE "_" "-" pc_name "docket-${component}")
  get_target_property(type docket_${component} TYPE)
  get_target_property(output_name docket_${component} OUTPUT_NAME)
  if(NOT output_name)
    set(output_name docket_${component})
  endif()
  set(requires "")
  set(requires_private "")
  foreach(entry IN LISTS DOCKET_${component}_links DOCKET_${component}_externals)
    string(REPLACE ":private" "" bare "${entry}")
    if(bare IN_LIST docket_components)
      string(REPLACE "_" "-" module "docket-${bare}")
    else()
      string(MAKE_C_IDENTIFIER "${bare}" key)
      get_property(external GLOBAL PROPERTY DOCKET_EXTERNAL_${key})
      list(GET external 2 module)
    endif()
    if(entry MATCHES ":private$" AND NOT type STREQUAL "STATIC_LIBRARY")
      list(APPEND requires_private ${module})
    else()
      list(APPEND requires ${module})
    endif()
  endforeach()
  list(REMOVE_DUPLICATES requires)
  list(REMOVE_DUPLICATES requires_private)
  list(JOIN requires " " requires)
  list(JOIN requires_private " " requires_private)
  # Only docket-core carries the include directory; every other file requires it.
  set(fields "")
  if(requires)
    string(APPEND fields "Requires: ${requires}\n")
  endif()
  if(requires_private)
    string(APPEND fields "Requires.private: ${requires_private}\n")
  endif()
  if(component STREQUAL "core")
    string(APPEND fields "Cflags: -I\${includedir}\n")
  endif()
  if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
    set(pc_libdir "${CMAKE_INSTALL_LIBDIR}")
  else()
    set(pc_libdir "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  endif()
  if(IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
    set(pc_includedir "${CMAKE_INSTALL_INCLUDEDIR}")
  else()
    set(pc_includedir "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
  endif()
  file(WRITE ${docket_pc_dir}/${pc_name}.pc.in
    "prefix=@DOCKET_PC_PREFIX@\n"
    "libdir=${pc_libdir}\n"
    "includedir=${pc_includedir}\n\n"
    "Name: ${pc_name}\n"
    "Description: docket's ${component} component (docket::${component}); compile as C++20\n"
    "Version: ${PROJECT_VERSION}\n"
    "${fields}"
    "Libs: -L\${libdir} -l${output_name}\n")
endforeach()
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}")
  set(docket_pc_install_dir "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
else()
  set(docket_pc_install_dir "\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_LIBDIR}/pkgconfig")
endif()
list(TRANSFORM docket_components REPLACE "_" "-" OUTPUT_VARIABLE docket_pc_names)
list(TRANSFORM docket_pc_names PREPEND "docket-")
install(CODE "
  foreach(pc_name IN ITEMS ${docket_pc_names})
    file(READ \"${docket_pc_dir}/\${pc_name}.pc.in\" text)
    string(REPLACE \"@DOCKET_PC_PREFIX@\" \"\${CMAKE_INSTALL_PREFIX}\" text \"\${text}\")
    file(WRITE \"${docket_pc_dir}/installed/\${pc_name}.pc\" \"\${text}\")
    file(INSTALL DESTINATION \"${docket_pc_install_dir}\"
      TYPE FILE FILES \"${docket_pc_dir}/installed/\${pc_name}.pc\")
  endforeach()")

# docket_installed_targets: builds exactly what `cmake --install` installs (every
# component and the tool), for a build that installs without building the suites or
# examples (debian/rules).
add_custom_target(docket_installed_targets)
foreach(component IN LISTS docket_components)
  add_dependencies(docket_installed_targets docket_${component})
endforeach()
if(TARGET docket)
  add_dependencies(docket_installed_targets docket)
endif()
