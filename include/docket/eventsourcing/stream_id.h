// The identity of one event stream: (tenant, aggregate type, aggregate id).
//
// The tenant is part of the identity, never a filter: two tenants that use the same
// aggregate type and id have two streams, each with its own version sequence, and no
// call that names one tenant can reach the other's stream. The same identity keys the
// stream's snapshot.
//
// Invariant: a StreamId exists only with valid terms (checked at construction), so a
// store never sees a malformed one and nothing is written on bad input.
//
// Copies share the terms, which are immutable: a store copies the StreamId into every
// event it loads, and a copy costs a reference count instead of three strings.
//
// Thread-safety: immutable value type; copies may be used and dropped on any thread.
#ifndef DOCKET_EVENTSOURCING_STREAM_ID_H_
#define DOCKET_EVENTSOURCING_STREAM_ID_H_

#include <compare>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "docket/core/tenant.h"

namespace docket {

// Longest aggregate type accepted, in bytes. A term of every stream and snapshot key.
inline constexpr std::size_t kMaxAggregateTypeBytes = 256;

// Longest aggregate id accepted, in bytes. Ids come from the domain (an order number,
// a customer reference); 512 bytes leaves room for the tenant and type in the
// document stores' keys (see docket/keys/stream_key.h).
inline constexpr std::size_t kMaxAggregateIdBytes = 512;

class StreamId {
 public:
  // Throws InvalidInputError naming the term when the aggregate type or id is empty,
  // not valid UTF-8, or longer than its maximum.
  StreamId(TenantId tenant, std::string_view aggregate_type, std::string_view aggregate_id);
  // Copying shares the terms. There is no move: a moved-from StreamId stays the same
  // valid identity.
  StreamId(const StreamId&) noexcept = default;
  StreamId& operator=(const StreamId&) noexcept = default;
  ~StreamId() = default;

  const TenantId& tenant() const noexcept { return terms_->tenant; }
  const std::string& aggregate_type() const noexcept { return terms_->aggregate_type; }
  const std::string& aggregate_id() const noexcept { return terms_->aggregate_id; }

  // "stream (tenant 't', aggregate type 'account', aggregate id 'A-1')", for messages.
  std::string describe() const;

  // By the terms, tenant first.
  friend bool operator==(const StreamId& a, const StreamId& b) noexcept {
    return a.terms_ == b.terms_ || *a.terms_ == *b.terms_;
  }
  friend std::strong_ordering operator<=>(const StreamId& a, const StreamId& b) noexcept {
    return *a.terms_ <=> *b.terms_;
  }

 private:
  struct Terms {
    TenantId tenant;
    std::string aggregate_type;
    std::string aggregate_id;

    friend bool operator==(const Terms&, const Terms&) = default;
    friend std::strong_ordering operator<=>(const Terms&, const Terms&) = default;
  };

  std::shared_ptr<const Terms> terms_;
};

}  // namespace docket

#endif  // DOCKET_EVENTSOURCING_STREAM_ID_H_
