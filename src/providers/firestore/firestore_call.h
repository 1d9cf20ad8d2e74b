// One Firestore v1 method as the client sends it (Call) and what comes back (Response).
//
// Every method docket uses is a POST of JSON to
//   {endpoint}/v1/projects/{project}/databases/{database}/documents:{method}
// (commit, batchGet, runQuery, beginTransaction, rollback), so a document id never has
// to be escaped into a URL path: it travels in the JSON body.
//
// Replay (kit/http/replay.h) is the caller's promise about sending the request twice.
// The client repeats a request that was provably not applied (RESOURCE_EXHAUSTED;
// ABORTED outside a transaction; a connection never made) whatever the promise; it
// repeats a request that may have been applied (UNAVAILABLE, INTERNAL,
// DEADLINE_EXCEEDED, a timeout or a connection broken after sending) only when replay
// is kSafe. kUnsafe: a commit with a precondition (its second try would report a
// conflict that was its own first). kSafe: reads (batchGet, runQuery), a rollback.
//
// Thread-safety: plain values.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CALL_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CALL_H_

#include <string_view>

#include "providers/firestore/firestore_service_error.h"
#include "providers/kit/http/json_response.h"
#include "providers/kit/http/replay.h"

namespace docket::firestore::detail {

using Replay = kit::http::Replay;

struct Call {
  std::string_view method{};  // "commit": the URL ends in documents:commit
  // What it acts on, for messages: "collection 'app_docket_claim_inbox'", or empty.
  std::string_view target{};
  Replay replay = Replay::kUnsafe;
  // A commit or read inside a transaction: ABORTED ends the transaction, so only the
  // caller (who re-runs it from its reads) may try again; the client never repeats it.
  bool in_transaction = false;
  // Codes handed back as a Response instead of thrown: a precondition that did not
  // hold is an outcome for the caller to act on.
  Codes expected{};
};

// The parsed answer of a successful call, or an error of a code the call expected.
using Response = kit::http::JsonResponse<ServiceError>;

}  // namespace docket::firestore::detail

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CALL_H_
