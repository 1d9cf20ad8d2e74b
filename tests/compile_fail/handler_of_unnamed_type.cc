// A handler of a type that names no message type.
#include "common.h"

void uses(docket::HandlerRegistry& handlers) {
  handlers.on([](const Unnamed&, docket::HandlerContext&) {});
}
