// Removing what a consumer group of the Pub/Sub transport stands on once a tool's run is
// over (`docket chaos`, `docket bench relay`): its subscription, the destination's topic
// and the topic of its dead-letter destination, as the transport created them
// (pubsub_topology.h). What does not exist any more is not an error.
//
// Thread-safety: a free function; each call uses a client of its own.
#ifndef DOCKET_TRANSPORTS_PUBSUB_PUBSUB_GROUP_REMOVAL_H_
#define DOCKET_TRANSPORTS_PUBSUB_PUBSUB_GROUP_REMOVAL_H_

#include <string_view>

namespace docket::pubsub::detail {

// Throws ConfigurationError for a URL the transport refuses, InfrastructureError naming
// the server and the resource when a deletion fails.
void remove_group(std::string_view url, std::string_view destination, std::string_view group);

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_PUBSUB_GROUP_REMOVAL_H_
