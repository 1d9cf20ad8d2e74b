// One Firestore v1 method as the client sends it (Call) and what comes back (Response).
//
// Every method docket uses is a POST of JSON to
//   {endpoint}/v1/projects/{project}/databases/{database}/documents:{method}
// (commit, batchGet, runQuery, beginTransaction, rollback), so a document id never has
// to be escaped into a URL path: it travels in the JSON body.
//
// Replay is the caller's promise about sending the request twice. The client repeats a
// request that was provably not applied (RESOURCE_EXHAUSTED; ABORTED outside a
// transaction; a connection never made) whatever the promise; it repeats a request
// that may have been applied (UNAVAILABLE, INTERNAL, DEADLINE_EXCEEDED, a timeout or a
// connection broken after sending) only when replay is kSafe.
//
// Thread-safety: plain values.
#ifndef DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CALL_H_
#define DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CALL_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>
#include <utility>

#include "providers/firestore/firestore_service_error.h"

namespace docket::firestore {

enum class Replay : bool {
  // Applying it twice could differ from applying it once: a commit with a precondition
  // (its second try would report a conflict that was its own first).
  kUnsafe,
  // Applying it twice is applying it once: reads (batchGet, runQuery), a rollback.
  kSafe,
};

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
class Response {
 public:
  explicit Response(nlohmann::json body) : body_(std::move(body)) {}
  explicit Response(ServiceError error) : error_(std::move(error)) {}

  bool ok() const noexcept { return !error_.has_value(); }
  // The answer's JSON; null when !ok().
  const nlohmann::json& body() const noexcept { return body_; }
  // The expected error; only when !ok().
  const ServiceError& error() const { return error_.value(); }

 private:
  nlohmann::json body_;
  std::optional<ServiceError> error_;
};

}  // namespace docket::firestore

#endif  // DOCKET_PROVIDERS_FIRESTORE_FIRESTORE_CALL_H_
