// Redis's limits as docket's Redis stores state and enforce them before sending.
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_LIMITS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_LIMITS_H_

#include <cstddef>
#include <string_view>

namespace docket::redis::detail {

// A key or a string value: 512 MB (proto-max-bulk-len's default, the documented limit).
inline constexpr std::size_t kMaxBulkBytes = std::size_t{512} * 1024 * 1024;
// One request (the commit script's arguments together): the server's default
// client-query-buffer-limit, 1 GB.
inline constexpr std::size_t kMaxCommitBytes = std::size_t{1024} * 1024 * 1024;

// Throws InvalidInputError naming `what` ("key", "value"), its size and the limit when
// `bytes` is over kMaxBulkBytes.
void check_size(std::string_view what, std::string_view bytes);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_LIMITS_H_
