// What single and batch dispatch derive from an envelope: the dedup row and the
// ambient message context.
//
// Thread-safety: pure functions.
#ifndef DOCKET_INBOX_DISPATCH_PARTS_H_
#define DOCKET_INBOX_DISPATCH_PARTS_H_

#include <string_view>

#include "docket/core/message_context.h"
#include "docket/core/tenant.h"
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

}  // namespace docket::inbox

#endif  // DOCKET_INBOX_DISPATCH_PARTS_H_
