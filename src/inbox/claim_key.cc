#include "docket/inbox/claim_key.h"

#include <utility>

#include "docket/inbox/inbox_envelope.h"
#include "inbox/text_checks.h"

namespace docket {

ClaimKey::ClaimKey(TenantId tenant, std::string_view message_id, std::string_view handler_type)
    : tenant_(std::move(tenant)), message_id_(message_id), handler_type_(handler_type) {
  validate_message_id("claim key: message id", message_id_);
  inbox::require_text("claim key: handler type", handler_type_, kMaxHandlerTypeBytes,
                      /*allow_blank=*/false,
                      "name the handler with a stable type name (e.g. billing.InvoiceHandler)");
}

ClaimKey ClaimKey::for_current_tenant(std::string_view message_id, std::string_view handler_type) {
  return ClaimKey(TenantScope::current_or_untenanted(), message_id, handler_type);
}

}  // namespace docket
