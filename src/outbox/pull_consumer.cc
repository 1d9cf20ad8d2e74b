#include "docket/outbox/pull_consumer.h"

#include <charconv>
#include <exception>
#include <map>
#include <string>

#include "core/idle_wait.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/transports/transport.h"

namespace docket {
namespace {

std::int64_t parse_position(const std::string& consumer_id, const std::string& text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) {
    throw ConfigurationError("pull consumer '" + consumer_id + "': its checkpoint '" + text +
                             "' is not an outbox sequence; another feed's consumer uses this "
                             "consumer id: give this consumer its own id");
  }
  return value;
}

// The ids of `rows` not yet processed by `consumer_id`, asked per tenant.
std::map<std::string, bool> unprocessed_ids(InboxStore& store, const std::string& consumer_id,
                                            const std::vector<OutboxRecord>& rows) {
  std::map<std::string, std::vector<std::string>> by_tenant;
  for (const auto& row : rows) {
    by_tenant[row.tenant].push_back(row.id);
  }
  std::map<std::string, bool> todo;
  for (const auto& [tenant, ids] : by_tenant) {
    // Untenanted rows are asked about untenanted, whatever scope the poller runs in.
    const TenantScope scope(TenantId::from_stored(tenant));
    for (auto& id : store.filter_unprocessed(consumer_id, ids)) {
      todo.emplace(std::move(id), true);
    }
  }
  return todo;
}

}  // namespace

PullConsumer::PullConsumer(OutboxStore& feed, const InboxDispatcher& dispatcher,
                           PullConsumerSettings settings, const Clock& clock)
    : feed_(feed), dispatcher_(dispatcher), settings_(settings), clock_(clock) {
  // The overlap window and the gap rule count sequence numbers: they need a feed of
  // global positions.
  if (feed_.capabilities().feed != FeedKind::kGlobalPositions) {
    refuse_capability("the " + std::string(feed_.provider_name()) + " outbox",
                      "be read as an ordered feed (it has no global sequence)",
                      "consume its messages through the relay and a transport");
  }
  if (settings_.batch_size == 0) {
    throw ConfigurationError("pull consumer: batch_size is 0; read at least 1 row per poll");
  }
  if (settings_.overlap < 0) {
    throw ConfigurationError("pull consumer: overlap is " + std::to_string(settings_.overlap) +
                             "; re-read 0 or more positions behind the checkpoint");
  }
  if (settings_.gap_timeout.count() < 0) {
    throw ConfigurationError("pull consumer: gap_timeout is negative (" +
                             std::to_string(settings_.gap_timeout.count()) +
                             " us); pass how long a gap may hold the checkpoint");
  }
  detail::IdleWait::check("pull consumer", settings_.poll_interval, settings_.max_poll_interval);
}

void PullConsumer::run(std::stop_token stop) {
  detail::IdleWait idle(settings_.poll_interval, settings_.max_poll_interval,
                        settings_.wake_ups ? feed_.staged_signal() : nullptr);
  while (!stop.stop_requested()) {
    idle.before_poll();
    const PullPass pass = poll();
    if (pass.processed + pass.skipped > 0)
      idle.found_work();
    else
      idle.wait(stop);
  }
}

PullPass PullConsumer::poll() {
  const std::string& consumer = dispatcher_.options().consumer_id();
  auto& checkpoints = dispatcher_.store().checkpoints();
  const auto stored = checkpoints.get(consumer);
  const std::int64_t checkpoint = stored ? parse_position(consumer, *stored) : 0;
  const std::int64_t from = std::max<std::int64_t>(0, checkpoint - settings_.overlap);
  const auto rows =
      feed_.read_feed(from, static_cast<std::size_t>(checkpoint - from) + settings_.batch_size);
  const auto todo = unprocessed_ids(dispatcher_.store(), consumer, rows);

  PullPass pass{.read = rows.size()};
  std::vector<std::int64_t> processed;
  std::exception_ptr failure;
  for (const auto& row : rows) {
    if (todo.contains(row.id)) {
      try {
        const auto outcome = dispatch_message(dispatcher_, {row.tenant, to_envelope(row)});
        ++(outcome == DispatchOutcome::kProcessed ? pass.processed : pass.skipped);
      } catch (...) {
        failure = std::current_exception();
        break;  // positions from here on are not known processed
      }
    }
    processed.push_back(row.sequence);
  }
  pass.checkpoint = advance_checkpoint(checkpoint, processed, gaps_first_seen_, clock_.now(),
                                       settings_.gap_timeout);
  if (pass.checkpoint != checkpoint) {
    checkpoints.set(consumer, std::to_string(pass.checkpoint));
  }
  if (failure) {
    std::rethrow_exception(failure);
  }
  return pass;
}

}  // namespace docket
