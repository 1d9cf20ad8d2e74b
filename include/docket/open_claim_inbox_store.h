// Opens a claim inbox store (docket/claim_inbox_store.h) from a URL, on any provider
// of this build that offers one (the schemes are listed in docket/open_inbox_store.h).
// An unknown or unavailable scheme is a ConfigurationError listing the schemes, and so
// is a provider that offers no claim inbox, naming the providers that do.
//
// Thread-safety: safe to call from many threads; the store returned is thread-safe.
#ifndef DOCKET_OPEN_CLAIM_INBOX_STORE_H_
#define DOCKET_OPEN_CLAIM_INBOX_STORE_H_

#include <memory>
#include <string_view>

#include "docket/claim_inbox_store.h"
#include "docket/clock.h"

namespace docket {

// `clock` stamps claims, leases and processed-at times; it must outlive the store.
std::unique_ptr<ClaimInboxStore> open_claim_inbox_store(
    std::string_view url, const Clock& clock = SystemClock::instance());

}  // namespace docket

#endif  // DOCKET_OPEN_CLAIM_INBOX_STORE_H_
