// A real event store (memory or SQLite) that shows only a feed of opaque cursors
// (FeedKind::kOpaqueCursors), with a cursor encoding of its own: what a store without
// a global order offers, so that the event feed consumer runs against it with real
// appends, transactions and checkpoints.
//
// Its cursors are "testwrap1:at-<hex>", the inner store's global position in
// lower-case hex. Its late-commit contract comes from the inner store's read_all,
// which never passes an event that commits later. It delivers at least once: when a
// page has room for more than one event, it starts one position before its cursor, so
// the event there (if any) comes again, as a store whose cursors resume inclusively
// would deliver it.
#ifndef DOCKET_TESTS_PROJECTIONS_CURSOR_ONLY_EVENT_STORE_H_
#define DOCKET_TESTS_PROJECTIONS_CURSOR_ONLY_EVENT_STORE_H_

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "docket/core/feed_cursor.h"
#include "docket/eventsourcing/event_store.h"

namespace docket::projection_tests {

class CursorOnlyEventStore final : public EventStore {
 public:
  static constexpr std::string_view kScheme = "testwrap1";

  // `inner` and `clock` outlive this store.
  CursorOnlyEventStore(EventStore& inner, const Clock& clock) : EventStore(clock), inner_(inner) {}

  // The cursor before the inner store's global position `position`.
  static FeedCursor encode(std::int64_t position) {
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, position, 16);
    return FeedCursor::opaque(kScheme, "at-" + std::string(digits, end));
  }

  // The inner global position of one of this store's cursors; nullopt for any other.
  static std::optional<std::int64_t> decode(const FeedCursor& cursor) {
    const std::string_view body = cursor.body();
    if (cursor.scheme() != kScheme || !body.starts_with("at-") || body.size() == 3) {
      return std::nullopt;
    }
    std::int64_t position = 0;
    const auto [end, ec] =
        std::from_chars(body.data() + 3, body.data() + body.size(), position, 16);
    if (ec != std::errc() || end != body.data() + body.size() || position < 0 ||
        encode(position) != cursor) {
      return std::nullopt;  // not as encode() writes it (a sign, upper case, leading zero)
    }
    return position;
  }

  std::string_view provider_name() const noexcept override { return "cursor-only"; }
  StoreCapabilities capabilities() const noexcept override {
    StoreCapabilities caps = inner_.capabilities();
    caps.feed = FeedKind::kOpaqueCursors;
    return caps;
  }

 protected:
  AppendResult do_append(const StreamId& stream, ExpectedVersion expected,
                         std::vector<RecordedEvent> events) override {
    return inner_.append(stream, expected, as_new(events));
  }
  AppendResult do_append_in(HandlerTransaction& transaction, const StreamId& stream,
                            ExpectedVersion expected, std::vector<RecordedEvent> events) override {
    return inner_.append(transaction, stream, expected, as_new(events));
  }
  std::vector<RecordedEvent> do_load(const StreamId& stream, std::int64_t from_version) override {
    return inner_.load(stream, from_version);
  }

  FeedPage do_read_feed(const FeedCursor& after, std::size_t limit,
                        const TenantId* tenant) override {
    const std::int64_t position = after.is_start() ? 0 : decode(after).value();
    const std::int64_t from = limit > 1 ? std::max<std::int64_t>(0, position - 1) : position;
    std::optional<TenantId> only;
    if (tenant != nullptr) {
      only = *tenant;
    }
    ReadAllPage inner = inner_.read_all(from, limit, only);
    FeedPage page{.events = std::move(inner.events), .resume_at = {}, .next = after};
    for (const RecordedEvent& event : page.events) {
      page.resume_at.push_back(encode(event.global_position));
    }
    if (inner.next_position > position) {
      page.next = encode(inner.next_position);
    }
    return page;
  }
  bool do_accepts_cursor(const FeedCursor& cursor) const override {
    return decode(cursor).has_value();
  }

 private:
  // The prepared events as the inner store's append takes them (it assigns the ids).
  static std::vector<NewEvent> as_new(const std::vector<RecordedEvent>& events) {
    std::vector<NewEvent> out;
    for (const RecordedEvent& e : events) {
      out.push_back(NewEvent{.type = e.type,
                             .payload = e.payload,
                             .metadata = e.metadata,
                             .occurred_at = e.occurred_at});
    }
    return out;
  }

  EventStore& inner_;
};

}  // namespace docket::projection_tests

#endif  // DOCKET_TESTS_PROJECTIONS_CURSOR_ONLY_EVENT_STORE_H_
