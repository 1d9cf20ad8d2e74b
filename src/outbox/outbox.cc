#include "docket/outbox/outbox.h"

#include <algorithm>
#include <optional>
#include <set>
#include <string>

#include "core/delete_in_batches.h"
#include "docket/core/error.h"
#include "docket/core/message_context.h"
#include "docket/core/tenant.h"
#include "docket/core/trace_context.h"
#include "docket/core/utf8.h"

namespace docket {
namespace {

Uuid message_id(const OutboxMessage& message) {
  if (!message.id) {
    return Uuid::v7();
  }
  if (message.id->is_nil()) {
    throw InvalidInputError(
        "outbox: the message id is the nil UUID; leave OutboxMessage::id empty to get a fresh "
        "UUIDv7, or pass one from Uuid::v7()");
  }
  if (message.id->version() != 7) {
    throw InvalidInputError("outbox: the message id " + message.id->to_string() + " is version " +
                            std::to_string(message.id->version()) +
                            ", not 7; outbox ids are UUIDv7 (sortable by creation); leave "
                            "OutboxMessage::id empty to get one");
  }
  return *message.id;
}

std::string bytes(std::size_t n) {
  return std::to_string(n) + " bytes";
}

// A routing text: UTF-8 (a broker and a store take it as text), no NUL (PostgreSQL text
// and C-string broker APIs cannot hold one), at most `limit` bytes.
void require_route_text(const std::string& what, std::string_view text, std::size_t limit,
                        std::string_view limit_name) {
  require_valid_utf8("outbox: the " + what, text);
  if (text.find('\0') != std::string_view::npos) {
    throw InvalidInputError("outbox: the " + what + " contains a NUL byte (at byte " +
                            std::to_string(text.find('\0')) +
                            "), which no store or broker carries as text; remove it");
  }
  if (text.size() > limit) {
    throw InvalidInputError("outbox: the " + what + " is " + bytes(text.size()) + ", over " +
                            std::string(limit_name) + " (" + bytes(limit) + "); shorten it");
  }
}

// RFC 9110 tchar: what an HTTP field name, an AMQP table key and a NATS header name all
// accept, so a header crosses every transport unchanged.
bool is_token(std::string_view name) {
  constexpr std::string_view kSymbols = "!#$%&'*+-.^_`|~";
  for (const char c : name) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && kSymbols.find(c) == std::string_view::npos) {
      return false;
    }
  }
  return !name.empty();
}

// Whether `name` begins, in any case, with a CloudEvents binding's attribute prefix
// ("ce-" HTTP, "ce_" Kafka; AMQP's "cloudEvents:" is no token): on such a binding the
// header would pass for an attribute of the envelope, so no transport could carry it.
bool is_cloudevents_attribute_name(std::string_view name) {
  return name.size() >= 3 && (name[0] == 'c' || name[0] == 'C') &&
         (name[1] == 'e' || name[1] == 'E') && (name[2] == '-' || name[2] == '_');
}

void validate_headers(const std::vector<MessageHeader>& headers) {
  if (headers.size() > kMaxHeaderCount) {
    throw InvalidInputError("outbox: the message has " + std::to_string(headers.size()) +
                            " headers, over kMaxHeaderCount (" + std::to_string(kMaxHeaderCount) +
                            "); carry the rest in the payload");
  }
  std::set<std::string_view> names;
  std::size_t total = 0;
  for (std::size_t i = 0; i < headers.size(); ++i) {
    const MessageHeader& header = headers[i];
    const std::string which = "header " + std::to_string(i);
    if (header.name.empty()) {
      throw InvalidInputError("outbox: " + which + " has an empty name; give every header a name");
    }
    if (!is_token(header.name)) {
      require_valid_utf8("outbox: the name of " + which, header.name);
      throw InvalidInputError("outbox: the name of " + which + " ('" + header.name +
                              "') is not a token; use letters, digits and !#$%&'*+-.^_`|~ only");
    }
    if (is_cloudevents_attribute_name(header.name)) {
      throw InvalidInputError("outbox: the name of " + which + " ('" + header.name +
                              "') begins with a CloudEvents attribute prefix (ce- or ce_), which "
                              "transports use for the envelope (docs/transports.md); rename it");
    }
    if (header.name.size() > kMaxHeaderNameBytes) {
      throw InvalidInputError("outbox: the name of " + which + " is " + bytes(header.name.size()) +
                              ", over kMaxHeaderNameBytes (" + bytes(kMaxHeaderNameBytes) +
                              "); shorten it");
    }
    if (!names.insert(header.name).second) {
      throw InvalidInputError("outbox: the header name '" + header.name +
                              "' appears twice; header names are unique: join the values or "
                              "rename one");
    }
    require_route_text("value of header '" + header.name + "'", header.value, kMaxHeadersBytes,
                       "kMaxHeadersBytes");
    total += header.name.size() + header.value.size();
  }
  if (total > kMaxHeadersBytes) {
    throw InvalidInputError("outbox: the headers are " + bytes(total) +
                            " in all (names and values), over kMaxHeadersBytes (" +
                            bytes(kMaxHeadersBytes) + "); carry large values in the payload");
  }
}

// The route's rules (OutboxMessage): checked before anything is staged.
void validate_route(const OutboxMessage& message) {
  require_route_text("destination", message.destination, kMaxDestinationBytes,
                     "kMaxDestinationBytes");
  if (message.ordering_key) {
    if (message.ordering_key->empty()) {
      throw InvalidInputError(
          "outbox: the ordering key is empty; leave OutboxMessage::ordering_key unset for a "
          "message without order, or give the key (e.g. the aggregate id)");
    }
    require_route_text("ordering key", *message.ordering_key, kMaxOrderingKeyBytes,
                       "kMaxOrderingKeyBytes");
  }
  validate_headers(message.headers);
}

// The record for `message`, lineage and trace defaulted from the current message.
OutboxRecord make_record(const OutboxMessage& message, const Uuid& id, Timestamp now) {
  const MessageContext* current = MessageContextScope::current();
  OutboxRecord record;
  record.id = id.to_string();
  record.tenant = TenantScope::current_or_untenanted().value();
  record.event_type = message.event_type;
  record.payload = message.payload;
  record.occurred_at = message.occurred_at.value_or(now);
  record.source = message.source;
  record.causation_id = message.causation_id;
  record.correlation_id = message.correlation_id;
  if (current != nullptr) {
    if (!record.causation_id && !current->message_id.empty()) {
      record.causation_id = current->message_id;
    }
    if (!record.correlation_id) {
      record.correlation_id = current->correlation_id;
    }
  }
  // Only a trace context the consumer would read is written. A malformed traceparent
  // (any bytes: it may come straight from a request header) is dropped with its
  // tracestate, as W3C Trace Context has a receiver do, and counts as none given; a
  // malformed tracestate beside a valid traceparent is dropped alone; a later version's
  // appended fields are dropped too (written in the version 00 layout). Written
  // verbatim, bytes that are not UTF-8 would fail the whole unit of work at commit on a
  // store whose strings are UTF-8.
  if (const std::optional<TraceContext> trace =
          parse_trace_context(message.traceparent, message.tracestate)) {
    record.traceparent = trace->parent.to_string();
    record.tracestate = trace->state;
  }
  if (record.traceparent.empty() && current != nullptr && current->trace) {
    record.traceparent = current->trace->parent.to_string();
    record.tracestate = current->trace->state;
  }
  // The default route is resolved here, so the row says where it goes.
  record.destination = message.destination.empty() ? message.event_type : message.destination;
  record.ordering_key = message.ordering_key;
  record.headers = message.headers;
  record.created_at = now;
  // A scheduled message is not due before deliver_at; one in the past is due at once.
  record.next_attempt_at = std::max(now, message.deliver_at.value_or(now));
  return record;
}

}  // namespace

void Outbox::refuse_typed_send(std::string_view message_type) {
  throw InvalidInputError("outbox send of a '" + std::string(message_type) +
                          "': the message passed beside the event carries an event type or "
                          "payload, which send() takes from the event's type and codec; leave "
                          "both empty (or stage() an OutboxMessage of your own). Nothing was "
                          "staged.");
}

HandlerTransaction& Outbox::store_transaction(SqlTransaction& tx) {
  if (auto* store = dynamic_cast<HandlerTransaction*>(&tx)) {
    return *store;
  }
  throw ConfigurationError(
      "outbox: the SqlTransaction given is no transaction of a docket store; stage through "
      "the transaction of a unit of work (unit->transaction<docket::SqlTransaction>()) or a "
      "handler's (ctx.transaction<docket::SqlTransaction>())");
}

Uuid Outbox::stage(HandlerTransaction& tx, const OutboxMessage& message) const {
  const Uuid id = message_id(message);
  validate_route(message);
  if (message.deliver_at && *message.deliver_at > kMaxDeliverAt) {
    throw InvalidInputError(
        "outbox message: deliver_at is " +
        std::to_string(message.deliver_at->time_since_epoch().count()) +
        " us since the Unix epoch, after 2255-06-05T23:47:34.740991Z (kMaxDeliverAt), the "
        "latest time every store holds to the microsecond; schedule it earlier");
  }
  const OutboxRecord record = make_record(message, id, clock_.now());
  // The envelope rules are the consumer's: a message the inbox would refuse is refused
  // here, before it is staged, rather than parked after max_attempts deliveries.
  validate_envelope(to_envelope(record));
  store_.insert(tx, record);
  return id;
}

std::vector<OutboxRecord> Outbox::parked(std::size_t limit, std::int64_t after_sequence) const {
  return store_.parked(after_sequence, limit);
}

bool Outbox::replay(std::string_view message_id) const {
  if (message_id.empty()) {
    throw InvalidInputError(
        "outbox replay: the message id is empty; pass the id of a parked "
        "message (Outbox::parked lists them)");
  }
  return store_.replay(message_id, clock_.now());
}

void Outbox::skip(std::string_view message_id) const {
  if (message_id.empty()) {
    throw InvalidInputError(
        "outbox skip: the message id is empty; pass the id of a parked message (Outbox::parked "
        "lists them)");
  }
  if (store_.skip(message_id, clock_.now())) {
    return;
  }
  const std::optional<OutboxRecord> found = store_.find(message_id);
  if (!found) {
    throw InvalidInputError("outbox skip: no message has id '" + std::string(message_id) +
                            "'; pass the id of a parked message (Outbox::parked lists them)");
  }
  throw InvalidInputError("outbox skip: message " + std::string(message_id) + " is " +
                          std::string(to_string(found->status)) +
                          ", not parked; only a parked message may be skipped (a pending one is "
                          "still being relayed)");
}

std::string_view to_string(CancelOutcome outcome) noexcept {
  switch (outcome) {
    case CancelOutcome::kCancelled:
      return "cancelled";
    case CancelOutcome::kNotFound:
      return "not found";
    case CancelOutcome::kBeingPublished:
      return "being published";
    case CancelOutcome::kAlreadyPublished:
      return "already published";
    case CancelOutcome::kNotPending:
      return "not pending";
  }
  return "not pending";
}

CancelOutcome Outbox::cancel(std::string_view message_id) const {
  if (message_id.empty()) {
    throw InvalidInputError(
        "outbox cancel: the message id is empty; pass the id Outbox::stage returned");
  }
  if (store_.cancel(message_id, clock_.now()))
    return CancelOutcome::kCancelled;
  const std::optional<OutboxRecord> found = store_.find(message_id);
  if (!found)
    return CancelOutcome::kNotFound;
  switch (found->status) {
    case OutboxStatus::kPending:
      return CancelOutcome::kBeingPublished;  // pending, yet not cancelled: claimed
    case OutboxStatus::kDone:
      return CancelOutcome::kAlreadyPublished;
    default:
      return CancelOutcome::kNotPending;
  }
}

std::uint64_t Outbox::purge_parked_before(Timestamp cutoff, std::size_t batch_size) const {
  if (batch_size == 0) {
    throw InvalidInputError(
        "outbox purge_parked_before: batch size is 0; pass the most rows one short transaction "
        "may delete (e.g. 1000)");
  }
  return core::delete_in_batches(batch_size,
                                 [&] { return store_.purge_parked_batch(cutoff, batch_size); });
}

std::uint64_t Outbox::purge_done_before(Timestamp cutoff, std::size_t batch_size) const {
  if (batch_size == 0) {
    throw InvalidInputError(
        "outbox purge_done_before: batch size is 0; pass the most rows one short transaction "
        "may delete (e.g. 1000)");
  }
  return core::delete_in_batches(batch_size,
                                 [&] { return store_.purge_done_batch(cutoff, batch_size); });
}

}  // namespace docket
