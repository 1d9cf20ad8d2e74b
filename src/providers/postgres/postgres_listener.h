// PostgreSQL's listening connection: LISTEN on one channel of one database, on a
// kit::NotificationListener's thread (providers/kit/notification_listener.h: the thread,
// the reconnection pauses, the stop and the sharing), whose wake signal each NOTIFY on
// the channel notifies: how a relay hears, within milliseconds, that a producer in any
// process committed a message (postgres_outbox_store.cc sends the NOTIFY with the
// insert).
//
// Thread-safety: shared_listener() may be called from any thread.
#ifndef DOCKET_PROVIDERS_POSTGRES_POSTGRES_LISTENER_H_
#define DOCKET_PROVIDERS_POSTGRES_POSTGRES_LISTENER_H_

#include <memory>
#include <string_view>

#include "providers/kit/notification_listener.h"

namespace docket::postgres::detail {

// The listener of the channel `channel` names (an SQL expression, evaluated on the
// listening connection, e.g. "'docket_outbox_' || md5(current_schema())") on the
// database `conninfo` names, shared by every store of this process that asks for it
// (one listening connection per process and database); it stops when the last holder
// lets go.
std::shared_ptr<kit::NotificationListener> shared_listener(std::string_view conninfo,
                                                           std::string_view channel);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_POSTGRES_LISTENER_H_
