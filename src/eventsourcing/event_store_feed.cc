// The event store's front end for the store-wide feed (read_all, read_feed,
// last_position): refuses what the store's FeedKind does not offer and every bad
// argument before a provider sees it, and serves read_feed from do_read_all on a feed of
// global positions.
#include <stdexcept>
#include <string>
#include <utility>

#include "docket/core/error.h"
#include "docket/eventsourcing/event_store.h"

namespace docket {
namespace {

// Refuses a page limit outside 1..kMaxReadAllLimit; `call` and `resume` name the call
// and what it continues from.
void require_page_limit(std::string_view call, std::size_t limit, std::string_view resume) {
  if (limit == 0 || limit > kMaxReadAllLimit) {
    throw InvalidInputError(std::string(call) + " limit " + std::to_string(limit) +
                            " is outside 1.." + std::to_string(kMaxReadAllLimit) +
                            ". Read in pages, continuing from each page's " + std::string(resume) +
                            ".");
  }
}

}  // namespace

ReadAllPage EventStore::read_all(std::int64_t from_position, std::size_t limit,
                                 const std::optional<TenantId>& tenant) {
  const FeedKind feed = capabilities().feed;
  if (feed == FeedKind::kOpaqueCursors) {
    refuse_capability(store_name(), "read every stream in one order (its feed has opaque cursors)",
                      "read the feed with read_feed and keep the cursors it returns");
  }
  if (feed != FeedKind::kGlobalPositions) {
    refuse_capability(store_name(), "read every stream in one order (no global sequence)",
                      "read streams by id, or build the feed from the outbox");
  }
  if (from_position < 0) {
    throw InvalidInputError("read_all from global position " + std::to_string(from_position) +
                            ": positions start at 1. Pass 0 or 1 to read from the start, or "
                            "the next_position of the previous page.");
  }
  require_page_limit("read_all", limit, "next_position");
  return do_read_all(from_position, limit, tenant ? &*tenant : nullptr);
}

FeedPage EventStore::read_feed(const FeedCursor& after, std::size_t limit,
                               const std::optional<TenantId>& tenant) {
  const FeedKind feed = capabilities().feed;
  if (feed == FeedKind::kNone) {
    refuse_capability(store_name(), "read a feed over every stream (it has no feed)",
                      "read streams by id, or build the feed from the outbox");
  }
  if (!accepts_cursor(after)) {
    throw InvalidInputError(
        "read_feed from cursor '" + after.text() + "': " + store_name() + "'s feed has " +
        std::string(describe(feed)) + ", and this is " +
        (after.position() ? "a global position"
                          : "a cursor of scheme '" + std::string(after.scheme()) + "'") +
        ". A cursor resumes only the feed that gave it: pass FeedCursor::start() or a cursor "
        "this store's read_feed returned.");
  }
  require_page_limit("read_feed", limit, "next cursor");
  const TenantId* only = tenant ? &*tenant : nullptr;
  if (feed == FeedKind::kGlobalPositions) {
    ReadAllPage page = do_read_all(*after.position(), limit, only);
    FeedPage out{.events = std::move(page.events),
                 .resume_at = {},
                 .next = FeedCursor::at_position(page.next_position)};
    out.resume_at.reserve(out.events.size());
    for (const RecordedEvent& event : out.events) {
      out.resume_at.push_back(FeedCursor::at_position(event.global_position));
    }
    return out;
  }
  FeedPage page = do_read_feed(after, limit, only);
  if (page.resume_at.size() != page.events.size() || page.events.size() > limit) {
    throw std::logic_error(store_name() + " returned a feed page of " +
                           std::to_string(page.events.size()) + " events (limit " +
                           std::to_string(limit) + ") with " +
                           std::to_string(page.resume_at.size()) + " cursors");
  }
  return page;
}

std::int64_t EventStore::last_position(const std::optional<TenantId>& tenant) {
  const FeedKind feed = capabilities().feed;
  if (feed != FeedKind::kGlobalPositions) {
    refuse_capability(store_name(),
                      "tell the position of its newest event (its feed has " +
                          std::string(describe(feed)) + ", not global positions)",
                      "read the feed with read_feed from a cursor to see what lies past it");
  }
  return do_last_position(tenant ? &*tenant : nullptr);
}

bool EventStore::accepts_cursor(const FeedCursor& cursor) const {
  switch (capabilities().feed) {
    case FeedKind::kGlobalPositions:
      return cursor.position().has_value();
    case FeedKind::kOpaqueCursors:
      return cursor.is_start() || do_accepts_cursor(cursor);
    case FeedKind::kNone:
      break;
  }
  return false;
}

ReadAllPage EventStore::do_read_all(std::int64_t, std::size_t, const TenantId*) {
  throw std::logic_error(store_name() +
                         " states a feed of global positions (or was asked "
                         "for one) but does not override do_read_all");
}

std::int64_t EventStore::do_last_position(const TenantId*) {
  throw std::logic_error(store_name() +
                         " states a feed of global positions but does not override "
                         "do_last_position");
}

FeedPage EventStore::do_read_feed(const FeedCursor&, std::size_t, const TenantId*) {
  throw std::logic_error(store_name() +
                         " states a feed of opaque cursors but does not override do_read_feed");
}

bool EventStore::do_accepts_cursor(const FeedCursor&) const {
  return false;
}

std::string EventStore::store_name() const {
  return "the " + std::string(provider_name()) + " event store";
}

}  // namespace docket
