# Warning and sanitizer flags shared by every docket target.
add_library(docket_build_flags INTERFACE)
target_compile_options(docket_build_flags INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Woverloaded-virtual
  -Wimplicit-fallthrough -Wcast-align -Wnull-dereference
  $<$<BOOL:${DOCKET_WERROR}>:-Werror>)
if(DOCKET_SANITIZE)
  target_compile_options(docket_build_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(docket_build_flags INTERFACE -fsanitize=address,undefined)
endif()

# Applies the flags to a target without exporting them to users of an installed docket.
function(docket_target_warnings target)
  target_link_libraries(${target} PRIVATE $<BUILD_INTERFACE:docket_build_flags>)
endfunction()
