// Replay: a document provider's caller's promise about sending one request twice.
//
// A client repeats a request that was provably not applied (throttled, or the connection
// never made) whatever the promise; it repeats a request that may have been applied (a
// server error, a timeout or a connection broken after sending) only when replay is
// kSafe. Each provider's call header says which of its operations are which.
//
// Thread-safety: a plain value.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_REPLAY_H_
#define DOCKET_PROVIDERS_KIT_HTTP_REPLAY_H_

namespace docket::kit::http {

enum class Replay : bool {
  // Applying it twice could differ from applying it once: a conditional write whose
  // second try would report a conflict that was its own first, an update that adds.
  kUnsafe,
  // Applying it twice is applying it once: a read, a whole-document write that is the
  // same each time, a write the service deduplicates by a token of the request.
  kSafe,
};

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_REPLAY_H_
