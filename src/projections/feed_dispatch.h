// The dispatching half of EventFeedConsumer::run_once (docket/projections/event_feed_consumer.h):
// one run of consecutive events of one tenant through the inbox, in one transaction.
#ifndef DOCKET_SRC_PROJECTIONS_FEED_DISPATCH_H_
#define DOCKET_SRC_PROJECTIONS_FEED_DISPATCH_H_

#include <cstddef>
#include <exception>
#include <optional>
#include <span>

#include "docket/eventsourcing/event.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/projections/event_feed_consumer.h"

namespace docket::projections {

// Dispatches `run` (events of one tenant, ascending, every type handled) with one
// dispatch_batch under that tenant's TenantScope, stopping at the first failure, and
// counts the outcomes into `pass`. Returns nullopt when every event was dispatched;
// otherwise the index in `run` of the first event not known processed (the failed
// one, or 0 when the run's transaction failed), with `error` set to what was thrown.
// While the handlers run, EventFeedConsumer::current_event finds `run`'s events.
std::optional<std::size_t> dispatch_run(const InboxDispatcher& dispatcher,
                                        std::span<const RecordedEvent* const> run,
                                        EventFeedPass& pass, std::exception_ptr& error);

}  // namespace docket::projections

#endif  // DOCKET_SRC_PROJECTIONS_FEED_DISPATCH_H_
