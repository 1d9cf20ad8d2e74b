// Where docket's Redis stores keep what they store, under the URL's prefix P (default
// "docket:"): the one place that lays out the keyspace. Keys that carry terms are
// composed by src/keys (through providers/kit/key_bridge.h) and placed under a
// constant namespace here; nothing else in the provider builds a key.
//
//   P dedup:{inbox dedup id}     hash: one transactional inbox record (tenant,
//                                consumer_id, message_id, event_type, occurred_at,
//                                processed_at, source, causation_id, correlation_id);
//                                the id is src/keys' Redis inbox id with the consumer in
//                                the handler type's place: inbox:{tenant}:{message}:{consumer}
//   P dedup-index                sorted set: each record's id scored by processed_at
//                                (Unix microseconds), what the purge reads
//   P checkpoint:positions       hash: field {tenant}:{consumer} (composed by src/keys,
//                                each term escaped by Redis's term codec) -> position
//   P checkpoint:times           hash: the same field -> updated_at (Unix microseconds)
//   P checkpoint:index           sorted set, every score 0: the fields in byte order,
//                                what the listing pages through (ZRANGEBYLEX)
//   P inbox:{tenant}:{message}:{handler type}
//                                hash: one claim inbox entry (the seed's Redis entry key,
//                                composed by src/keys), its fields named as
//                                kit::StoredClaimEntry's
//   P claim:keys                 sorted set, every score 0: the entry ids in byte order
//                                (the listing's key order)
//   P claim:processed            sorted set: processed entries' ids by processed_at
//   P claim:failed               sorted set: failed entries' ids by next_attempt_at
//   P outbox:sequence            string: the last outbox sequence drawn (INCR in the
//                                commit script)
//   P outbox:message:{id}        hash: one outbox message (redis_outbox_row.h)
//   P outbox:feed                sorted set: every message's id by sequence (read_feed)
//   P outbox:due                 sorted set: ids of pending messages free to go (no
//                                earlier message of their ordering key holds them), by
//                                the time they become claimable (next_attempt_at, or
//                                lease_until while leased)
//   P outbox:ready               sorted set: those of them found due, by sequence (what
//                                claim leases from, lowest sequence first)
//   P outbox:parked              sorted set: parked messages' ids by sequence
//   P outbox:done                sorted set: done messages' ids by done_at (the purge)
//   P outbox:order:t:{tenant}:{ordering key}
//                                sorted set: the ids of one ordering key's messages that
//                                hold it (pending or parked), by sequence; the first
//                                is the one the key lets go
//   P events:position            string: the last global position drawn (INCR in the
//                                commit script)
//   P event:{position}           hash: one event (redis_event_fields.h)
//   P events:feed                sorted set: every event's position (member and score)
//   P events:tenant:t:{tenant}   sorted set: one tenant's events' positions
//   P stream:t:{tenant}:{aggregate type}:{aggregate id}
//                                list: the stream's events' positions, index = version
//   P snapshot:t:{tenant}:{aggregate type}:{aggregate id}
//                                hash: the stream's snapshot (version, payload, taken_at)
//   P saga:t:{tenant}:{saga type}:{saga id}
//                                hash: one saga (redis_saga_fields.h)
//   P sagas:keys                 sorted set, every score 0: each saga's key after P saga:
//                                (its member), in byte order: the listing's key order
//   P sagas:completed            sorted set: completed sagas' members by completed_at
//                                (the purge)
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_KEYSPACE_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_KEYSPACE_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/eventsourcing/stream_id.h"
#include "docket/inbox/claim_key.h"
#include "docket/inbox/inbox_store.h"
#include "docket/keys/checkpoint_key.h"
#include "docket/sagas/saga_id.h"
#include "providers/redis/redis_url.h"

namespace docket::redis::detail {

inline constexpr std::string_view kDedupNamespace = "dedup:";
inline constexpr std::string_view kDedupIndex = "dedup-index";
inline constexpr std::string_view kCheckpointPositions = "checkpoint:positions";
inline constexpr std::string_view kCheckpointTimes = "checkpoint:times";
inline constexpr std::string_view kCheckpointIndex = "checkpoint:index";
inline constexpr std::string_view kClaimKeys = "claim:keys";
inline constexpr std::string_view kClaimProcessed = "claim:processed";
inline constexpr std::string_view kClaimFailed = "claim:failed";
inline constexpr std::string_view kOutboxSequence = "outbox:sequence";
inline constexpr std::string_view kOutboxMessages = "outbox:message:";
inline constexpr std::string_view kOutboxFeed = "outbox:feed";
inline constexpr std::string_view kOutboxDue = "outbox:due";
inline constexpr std::string_view kOutboxReady = "outbox:ready";
inline constexpr std::string_view kOutboxParked = "outbox:parked";
inline constexpr std::string_view kOutboxDone = "outbox:done";
inline constexpr std::string_view kOutboxOrder = "outbox:order:";
// A Pub/Sub channel, not a key: the commit script publishes the count of messages a
// commit staged to it, and relays' listeners subscribe (redis_listener.h).
inline constexpr std::string_view kOutboxStaged = "outbox:staged";
// A Pub/Sub channel, not a key: the commit script publishes the count of events a commit
// appended to it, and feed consumers' listeners subscribe (RedisEventStore's
// appended_signal).
inline constexpr std::string_view kEventsAppended = "events:appended";
inline constexpr std::string_view kEventPosition = "events:position";
inline constexpr std::string_view kEventRecords = "event:";
inline constexpr std::string_view kEventFeed = "events:feed";
inline constexpr std::string_view kEventTenantFeed = "events:tenant:";
inline constexpr std::string_view kEventStreams = "stream:";
inline constexpr std::string_view kSnapshots = "snapshot:";
inline constexpr std::string_view kSagas = "saga:";
inline constexpr std::string_view kSagaKeys = "sagas:keys";
inline constexpr std::string_view kSagaCompleted = "sagas:completed";

// The dedup record's id (its member in the index). Throws as src/keys does
// (KeyTooLongError, InvalidKeyTermError).
std::string dedup_id(const DedupKey& key);
// The key of the record whose id is `id`: P dedup:{id}.
std::string dedup_key(const RedisUrl& url, std::string_view id);

// The claim inbox entry's id (its member in the indexes), and its key: P {id}.
std::string claim_entry_id(const ClaimKey& key);
std::string claim_entry_key(const RedisUrl& url, std::string_view id);

// The outbox's keys under the URL's prefix: the message with `id`, and the set of the
// messages holding one ordering key of one tenant (throws as src/keys does).
std::string outbox_message_key(const RedisUrl& url, std::string_view id);
std::string outbox_order_key(const RedisUrl& url, std::string_view tenant,
                             std::string_view ordering_key);

// The event store's keys: a stream's list, one tenant's feed, a stream's snapshot
// (throw as src/keys does).
std::string event_stream_key(const RedisUrl& url, const StreamId& stream);
std::string event_tenant_feed_key(const RedisUrl& url, std::string_view tenant);
std::string snapshot_key(const RedisUrl& url, const StreamId& stream);

// A saga's member in the saga indexes (t:{tenant}:{saga type}:{saga id}, throws as
// src/keys does), its key (P saga:{member}), and what every member of one tenant
// begins with (t:{tenant}:).
std::string saga_member(const SagaId& saga);
std::string saga_key(const RedisUrl& url, std::string_view member);
std::string saga_tenant_prefix(std::string_view tenant);

// The checkpoint field of (tenant, consumer) (src/keys: each term escaped, joined by
// ':'; throws as src/keys does), what every field of one tenant begins with, and the
// field's terms (nullopt for a field docket did not write).
std::string checkpoint_field(std::string_view tenant, std::string_view consumer_id);
std::string checkpoint_tenant_prefix(std::string_view tenant);
using CheckpointTermsView = keys::CheckpointTerms;
std::optional<CheckpointTermsView> parse_checkpoint_field(std::string_view field);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_KEYSPACE_H_
