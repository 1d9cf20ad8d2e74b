// The identity of one claim-inbox entry: one message handled by one handler type,
// under one tenant. A validated value type.
//
// On document stores the entry's id is composed from these three terms by src/keys
// (keys::compose_inbox_entry_id), and the entry also carries the message id and the
// handler type as fields, so that an id can always be re-derived from its document.
//
// Thread-safety: an immutable value type.
#ifndef DOCKET_INBOX_CLAIM_KEY_H_
#define DOCKET_INBOX_CLAIM_KEY_H_

#include <compare>
#include <cstddef>
#include <string>
#include <string_view>

#include "docket/core/tenant.h"

namespace docket {

// Longest handler type accepted, in bytes.
inline constexpr std::size_t kMaxHandlerTypeBytes = 512;

class ClaimKey {
 public:
  // Throws InvalidInputError naming the term when the message id is blank, not valid
  // UTF-8 or over kMaxMessageIdBytes, or the handler type is blank, not valid UTF-8 or
  // over kMaxHandlerTypeBytes.
  ClaimKey(TenantId tenant, std::string_view message_id, std::string_view handler_type);

  // The same key for the ambient tenant (TenantScope::current_or_untenanted()).
  static ClaimKey for_current_tenant(std::string_view message_id, std::string_view handler_type);

  const TenantId& tenant() const noexcept { return tenant_; }
  const std::string& message_id() const noexcept { return message_id_; }
  const std::string& handler_type() const noexcept { return handler_type_; }

  friend bool operator==(const ClaimKey&, const ClaimKey&) = default;
  friend auto operator<=>(const ClaimKey&, const ClaimKey&) = default;

 private:
  TenantId tenant_;
  std::string message_id_;
  std::string handler_type_;
};

}  // namespace docket

#endif  // DOCKET_INBOX_CLAIM_KEY_H_
