// Redis's listening connection: SUBSCRIBE to a channel (the outbox's staged channel, the
// events' appended channel) on a kit::NotificationListener's thread
// (providers/kit/notification_listener.h: the thread, the reconnection pauses, the stop
// and the sharing), whose wake signal each message on the channel notifies: how a relay
// hears, within milliseconds, that a producer in any process committed a message, and a
// feed consumer that events were appended (the commit script PUBLISHes with the messages
// it stages and the events it appends, redis_commit_script.cc). Pub/Sub delivers to whoever is
// subscribed at the time and keeps nothing: a message published while the connection was down is
// lost, which the waiters' polling covers. Channels are the server's, not a database's: stores on
// other databases of one server with the same prefix wake each other's relays, which
// costs them a poll and nothing else.
//
// Thread-safety: shared_listener() may be called from any thread.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_LISTENER_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_LISTENER_H_

#include <memory>
#include <string_view>

#include "providers/kit/notification_listener.h"
#include "providers/redis/redis_url.h"

namespace docket::redis::detail {

// The listener of `channel` on the server `url` names, shared by every store of this
// process that asks for it; it stops when the last holder lets go.
std::shared_ptr<kit::NotificationListener> shared_listener(const RedisUrl& url,
                                                           std::string_view channel);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_LISTENER_H_
