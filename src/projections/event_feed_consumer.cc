#include "docket/projections/event_feed_consumer.h"

#include <exception>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/idle_wait.h"
#include "docket/core/error.h"
#include "projections/feed_dispatch.h"

namespace docket {
namespace {

// Where the consumer's checkpoint lives: its tenant's, or the whole feed's.
TenantId checkpoint_tenant(const EventFeedSettings& settings) {
  return settings.tenant.value_or(TenantId::untenanted());
}

std::string describe(const InboxDispatcher& dispatcher, const EventFeedSettings& settings) {
  return "event feed consumer '" + dispatcher.options().consumer_id() + "' (" +
         (settings.tenant ? "tenant '" + settings.tenant->value() + "'" : "every tenant") + ")";
}

void validate(const EventFeedSettings& s, const std::string& who) {
  if (s.batch_size == 0 || s.batch_size > kMaxReadAllLimit) {
    throw ConfigurationError(who + ": batch_size is " + std::to_string(s.batch_size) +
                             "; read 1 to " + std::to_string(kMaxReadAllLimit) +
                             " events per page");
  }
  detail::IdleWait::check(who, s.poll_interval, s.max_poll_interval);
  if (s.tenant && s.tenant->is_untenanted()) {
    throw ConfigurationError(who + ": the tenant filter is \"" + std::string(kUntenantedSentinel) +
                             "\", the sentinel under which a whole-feed consumer keeps its "
                             "checkpoint; name a real tenant, or none for every tenant's events");
  }
}

}  // namespace

EventFeedConsumer::EventFeedConsumer(EventStore& events, const InboxDispatcher& dispatcher,
                                     EventFeedSettings settings)
    : events_(events), dispatcher_(dispatcher), settings_(std::move(settings)) {
  validate(settings_, describe(dispatcher_, settings_));
  if (events_.capabilities().feed == FeedKind::kNone) {
    refuse_capability("the " + std::string(events_.provider_name()) + " event store",
                      "feed a catch-up consumer (it has no feed over every stream)",
                      "consume the outbox's messages through a transport instead");
  }
}

FeedCursor EventFeedConsumer::cursor() const {
  const TenantScope scope(checkpoint_tenant(settings_));
  const auto stored = dispatcher_.store().checkpoints().get(dispatcher_.options().consumer_id());
  if (!stored) {
    return FeedCursor::start();
  }
  std::optional<FeedCursor> cursor = FeedCursor::try_parse(*stored);
  if (!cursor || !events_.accepts_cursor(*cursor)) {
    throw ConfigurationError(describe(dispatcher_, settings_) + ": its checkpoint '" + *stored +
                             "' is not a cursor of the " + std::string(events_.provider_name()) +
                             " event store's feed (" +
                             std::string(docket::describe(events_.capabilities().feed)) +
                             "); a consumer of another feed uses this consumer id: give this "
                             "consumer its own id");
  }
  return *std::move(cursor);
}

std::int64_t EventFeedConsumer::checkpoint() const {
  const FeedCursor at = cursor();
  if (!at.position()) {
    throw ConfigurationError(describe(dispatcher_, settings_) + ": the " +
                             std::string(events_.provider_name()) +
                             " event store's feed has opaque cursors, not global positions; "
                             "call cursor() for the checkpoint");
  }
  return *at.position();
}

EventFeedPass EventFeedConsumer::run_once() {
  const FeedCursor from = cursor();
  const FeedPage page = events_.read_feed(from, settings_.batch_size, settings_.tenant);
  EventFeedPass pass{.read = page.events.size()};

  // Consecutive handled events of one tenant go through one dispatch_batch.
  const HandlerRegistry& handlers = dispatcher_.handlers();
  std::vector<const RecordedEvent*> run;
  std::optional<std::size_t> stopped_at;  // index in page.events
  std::exception_ptr failure;
  const auto flush = [&] {
    if (!run.empty()) {
      if (const auto failed = projections::dispatch_run(dispatcher_, run, pass, failure)) {
        stopped_at = static_cast<std::size_t>(run[*failed] - page.events.data());
      }
      run.clear();
    }
  };
  for (const RecordedEvent& event : page.events) {
    if (!handlers.handles(event.type)) {
      continue;
    }
    if (!run.empty() && run.front()->stream.tenant() != event.stream.tenant()) {
      flush();
      if (stopped_at) {
        break;
      }
    }
    run.push_back(&event);
  }
  if (!stopped_at) {
    flush();
  }

  const std::size_t passed = stopped_at.value_or(page.events.size());
  pass.cursor = stopped_at ? page.resume_at[*stopped_at] : page.next;
  pass.checkpoint = pass.cursor.position().value_or(0);
  for (std::size_t i = 0; i < passed; ++i) {
    if (!handlers.handles(page.events[i].type)) {
      ++pass.unhandled;  // the checkpoint passed it: nothing to do for this consumer
    }
  }
  if (pass.cursor != from) {
    const TenantScope scope(checkpoint_tenant(settings_));
    dispatcher_.store().checkpoints().set(dispatcher_.options().consumer_id(), pass.cursor.text());
  }
  if (failure) {
    std::rethrow_exception(failure);
  }
  return pass;
}

void EventFeedConsumer::run(std::stop_token stop) {
  detail::IdleWait idle(settings_.poll_interval, settings_.max_poll_interval,
                        settings_.wake_ups ? events_.appended_signal() : nullptr);
  while (!stop.stop_requested()) {
    idle.before_poll();
    const EventFeedPass pass = run_once();
    if (pass.read > 0)
      idle.found_work();
    if (pass.read == settings_.batch_size) {
      continue;  // a full page: more may be waiting
    }
    idle.wait(stop);
  }
}

}  // namespace docket
