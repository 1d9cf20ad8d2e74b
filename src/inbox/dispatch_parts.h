// What single and batch dispatch derive from an envelope (the dedup row and the
// ambient message context), and what they run once a message committed.
//
// Thread-safety: pure functions.
#ifndef DOCKET_INBOX_DISPATCH_PARTS_H_
#define DOCKET_INBOX_DISPATCH_PARTS_H_

#include <string_view>

#include "docket/core/message_context.h"
#include "docket/core/observer.h"
#include "docket/core/tenant.h"
#include "docket/inbox/handler_context.h"
#include "docket/inbox/inbox_dispatcher.h"
#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_store.h"

namespace docket::inbox {

InboxRecord make_record(const Envelope& envelope, std::string_view consumer_id,
                        const TenantId& tenant);

// Sets the per-message fields of `record` (message id, event type, occurred-at,
// lineage) from `envelope`, keeping its tenant and consumer id and reusing its strings'
// storage: a batch fills one record per message without allocating.
void fill_record(InboxRecord& record, const Envelope& envelope);

// The context handlers see; a malformed trace context is absent, never an error.
MessageContext make_context(const Envelope& envelope, std::string_view consumer_id);

// Runs a committed message's after-commit actions in order (handler_context.h): every
// one, then rethrows the first exception one of them threw.
void run_after_commit(AfterCommitActions& actions);

// What an observer is told of `envelope` (docket/core/observer.h); views into the
// arguments, which must outlive it.
// Whether the message of `result` wrote its dedup record in its unit: processed, or
// marked processed without a handler (UnhandledTypes::kMarkProcessed).
inline bool wrote_dedup_record(const BatchItemResult& result) noexcept {
  return result.outcome == DispatchOutcome::kProcessed ||
         result.outcome == DispatchOutcome::kUnhandled;
}

// The observer's outcome of a dispatch's.
MessageOutcome observed_outcome(DispatchOutcome outcome) noexcept;

MessageStart observed_start(const Envelope& envelope, std::string_view consumer_id,
                            const TenantId& tenant, bool batched) noexcept;

}  // namespace docket::inbox

#endif  // DOCKET_INBOX_DISPATCH_PARTS_H_
