// Inbox entry ids on document stores: one entry per (tenant, message id, handler type).
//
// Shapes (each term escaped by the provider's term codec, see term_codec.h):
//
//   Firestore      document id   inbox:{tenant}:{messageId}:{handlerType}   full percent-encoding
//   Elasticsearch  _id           {tenant}:{messageId}:{handlerType}         full percent-encoding
//   Cosmos DB      item id       {tenant}:{messageId}:{handlerType}         '%' ':' '/' '\' '?' '#'
//                                                                            space, 0x00-0x1F, 0x7F
//   MongoDB        _id           {tenant}:{messageId}:{handlerType}         '%' ':'
//   Redis          key           inbox:{tenant}:{messageId}:{handlerType}   '%' ':'
//   DynamoDB       partition key {tenant}:{messageId}:{handlerType}         '%' ':'
//
// Firestore's constant "inbox:" prefix keeps every id clear of the reserved __.*__
// form (an untenanted id would otherwise begin "__untenanted__") and of "." and "..".
// For terms made only of unreserved characters (A-Z a-z 0-9 - . _ ~) the id is
// byte-identical to the shape above with the raw terms.
//
// Every term must be non-empty, well-formed UTF-8; the tenant may be the sentinel
// "__untenanted__". The composed id must fit the provider's limit.
//
// Thread-safety: pure functions.
#ifndef DOCKET_KEYS_INBOX_KEY_H_
#define DOCKET_KEYS_INBOX_KEY_H_

#include <optional>
#include <string>
#include <string_view>

#include "docket/keys/key.h"
#include "docket/keys/provider.h"

namespace docket::keys {

struct InboxEntryTerms {
  std::string tenant;
  std::string message_id;
  std::string handler_type;

  friend bool operator==(const InboxEntryTerms&, const InboxEntryTerms&) = default;
};

// Composes the entry id. Throws InvalidKeyTermError naming the term when a term is
// empty or not valid UTF-8, and KeyTooLongError naming the provider, the limit, the
// actual size and the term to shorten when the id does not fit.
Key compose_inbox_entry_id(Provider provider, const InboxEntryTerms& terms);

// The exact inverse: the terms a well-formed id was composed from, or nullopt when
// `id` is not an id compose_inbox_entry_id() could have written for `provider` (only
// the canonical spelling parses: the decoded terms are re-composed and compared).
std::optional<InboxEntryTerms> parse_inbox_entry_id(Provider provider, std::string_view id);

// Legacy Firestore/Elasticsearch ids joined the raw terms with '_':
//   {tenant}_{messageId}_{handlerType}
// That join is ambiguous, so docket never writes it. Given an old id and the entry's
// own messageId and handlerType fields, returns the tenant: whatever precedes the
// suffix "_{messageId}_{handlerType}". nullopt when `old_id` does not end with that
// suffix (it is not on the old shape, e.g. already re-keyed) or nothing precedes it.
std::optional<std::string> recover_legacy_inbox_tenant(std::string_view old_id,
                                                       std::string_view message_id,
                                                       std::string_view handler_type);

// What the re-key procedure (docs/migrations.md) makes of an entry stored under `id`
// whose own fields say `message_id` and `handler_type`, the one rule of the offline and
// the online `docket migrate inbox-ids`:
//   kCurrent  the id is the current one for these terms: nothing to do;
//   kRekey    the id is the legacy one: `new_id` is the current id, the tenant being
//             whatever precedes "_{messageId}_{handlerType}";
//   kRefused  neither, or the recovered terms compose no valid id: `reason` says why
//             (it follows "the entry ..."), and nothing is to be guessed for it.
struct InboxIdRekey {
  enum class Outcome { kCurrent, kRekey, kRefused };
  Outcome outcome = Outcome::kRefused;
  std::string new_id{};
  std::string reason{};
};
InboxIdRekey rekey_inbox_entry_id(Provider provider, std::string_view id,
                                  std::string_view message_id, std::string_view handler_type);

}  // namespace docket::keys

#endif  // DOCKET_KEYS_INBOX_KEY_H_
