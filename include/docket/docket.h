// docket's application-facing API in one include: the inbox, outbox, transports, event
// sourcing, sagas, projections and the stores opened from a URL, over the core types.
//
// Each header it includes reads alone and says what it holds; include those instead to
// keep a translation unit's dependencies narrow. Not included: docket/keys/ (the key
// shapes every provider stores, for tools), docket/spi/ (what only a provider or a
// transport implements) and docket/<provider>/ (each provider's typed transaction and
// stores, which a handler written for that provider includes).
//
// Thread-safety: see each header.
#ifndef DOCKET_DOCKET_H_
#define DOCKET_DOCKET_H_

#include "docket/core/clock.h"
#include "docket/core/error.h"
#include "docket/core/event_type.h"
#include "docket/core/feed_cursor.h"
#include "docket/core/handler_transaction.h"
#include "docket/core/message_context.h"
#include "docket/core/message_header.h"
#include "docket/core/retry_schedule.h"
#include "docket/core/store_capabilities.h"
#include "docket/core/tenant.h"
#include "docket/core/trace_context.h"
#include "docket/core/transaction_type.h"
#include "docket/core/unit_of_work.h"
#include "docket/core/utf8.h"
#include "docket/core/uuid.h"
#include "docket/core/version_conflict.h"
#include "docket/eventsourcing/aggregate.h"
#include "docket/eventsourcing/append_result.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/event_store.h"
#include "docket/eventsourcing/eventsourcing_schema.h"
#include "docket/eventsourcing/expected_version.h"
#include "docket/eventsourcing/snapshot_store.h"
#include "docket/eventsourcing/stream_id.h"
#include "docket/inbox/checkpoint_store.h"
#include "docket/inbox/claim_inbox_schema.h"
#include "docket/inbox/claim_inbox_store.h"
#include "docket/inbox/claim_key.h"
#include "docket/inbox/claim_runner.h"
#include "docket/inbox/handler_context.h"
#include "docket/inbox/handler_registry.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_errors.h"
#include "docket/inbox/inbox_options.h"
#include "docket/inbox/inbox_schema.h"
#include "docket/inbox/inbox_store.h"
#include "docket/inbox/json_codec.h"
#include "docket/outbox/backoff.h"
#include "docket/outbox/outbox.h"
#include "docket/outbox/outbox_message.h"
#include "docket/outbox/outbox_schema.h"
#include "docket/outbox/outbox_store.h"
#include "docket/outbox/pull_consumer.h"
#include "docket/outbox/relay.h"
#include "docket/outbox/relay_options.h"
#include "docket/projections/event_feed_consumer.h"
#include "docket/sagas/saga_coordinator.h"
#include "docket/sagas/saga_errors.h"
#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_step_context.h"
#include "docket/sagas/saga_step_runner.h"
#include "docket/sagas/saga_store.h"
#include "docket/stores/inbox_id_migration.h"
#include "docket/stores/legacy_scan.h"
#include "docket/stores/open_store.h"
#include "docket/stores/printable_store_url.h"
#include "docket/stores/tenant_rekey.h"
#include "docket/transports/in_process_transport.h"
#include "docket/transports/transport.h"

#endif  // DOCKET_DOCKET_H_
