# Checks that every public header includes only docket headers of its own layer and of
# the layers below it (DESIGN.md, Layers), so that the folders of include/docket/ stay a
# true picture of the dependencies:
#
#   core -> keys -> inbox, eventsourcing -> transports -> outbox -> sagas, projections
#   -> spi -> stores -> <provider>/ -> docket.h
#
# spi/ sits above the layers whose SPIs it completes: what only a provider implements
# sees every type of the stores it implements them for.
#
# Run as `cmake -DSOURCE_DIR=... -P include_layers.cmake`; prints every violation, each
# naming the header, the include and the layers it may use, and fails if there is one.

cmake_minimum_required(VERSION 3.25)

set(allowed_core core)
set(allowed_keys core keys)
set(allowed_inbox core keys inbox)
set(allowed_eventsourcing core keys eventsourcing)
set(allowed_transports core keys inbox transports)
set(allowed_outbox core keys inbox transports outbox)
set(allowed_sagas core keys inbox transports outbox sagas)
set(allowed_projections core keys inbox eventsourcing projections)
set(allowed_spi core keys inbox eventsourcing transports outbox sagas projections spi)
set(allowed_stores core keys spi inbox eventsourcing transports outbox sagas projections stores)
# A provider's folder may use every layer, and its own folder, never another provider's.
set(layers core keys inbox eventsourcing transports outbox sagas projections spi stores)

file(GLOB_RECURSE headers RELATIVE ${SOURCE_DIR}/include/docket ${SOURCE_DIR}/include/docket/*.h)
set(violations "")
foreach(header IN LISTS headers)
  if(header MATCHES "^([^/]+)/")
    set(layer ${CMAKE_MATCH_1})
  else()
    set(layer "") # docket/docket.h: the whole application-facing API
  endif()
  if(layer STREQUAL "")
    set(allowed ${layers})
  elseif(layer IN_LIST layers)
    set(allowed ${allowed_${layer}})
  else()
    set(allowed ${layers} ${layer}) # a provider's folder
  endif()
  file(STRINGS ${SOURCE_DIR}/include/docket/${header} includes REGEX "^#include \"")
  foreach(line IN LISTS includes)
    if(NOT line MATCHES "^#include \"docket/([^/\"]+)/[^\"]+\"")
      string(APPEND violations "  ${header}: ${line} is not a layer's header (docket/<layer>/<name>.h)\n")
      continue()
    endif()
    if(NOT CMAKE_MATCH_1 IN_LIST allowed)
      string(REPLACE ";" " " allowed_text "${allowed}")
      string(APPEND violations
        "  ${header}: ${line} reaches layer '${CMAKE_MATCH_1}'; this header may include: ${allowed_text}\n")
    endif()
  endforeach()
endforeach()

if(NOT headers)
  message(FATAL_ERROR "include_layers: no headers under ${SOURCE_DIR}/include/docket")
endif()
if(violations)
  message(FATAL_ERROR "include_layers: public headers reaching past their layer (DESIGN.md, Layers):\n${violations}")
endif()
list(LENGTH headers count)
message(STATUS "include_layers: ${count} public headers, each within its layer")
