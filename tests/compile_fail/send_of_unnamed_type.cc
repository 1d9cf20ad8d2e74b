// Sending a type that names no message type.
#include "common.h"

void uses(const docket::Outbox& outbox, docket::HandlerTransaction& tx) {
  outbox.send(tx, Unnamed{"O-1"});
}
