// Redis's limits as docket's Redis stores state and enforce them before sending.
//
// Thread-safety: constants and pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_LIMITS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_LIMITS_H_

#include <cstddef>
#include <span>
#include <string>
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

// Throws InvalidInputError when a record's fields (names and values together) come to
// more than kMaxBulkBytes, the most a store states it keeps per record
// (max_bytes_per_record): "<store>: <what> would be a record of N bytes, over ...
// Nothing was written. <advice>".
void check_record(std::string_view store, std::string_view what,
                  std::span<const std::string> fields, std::string_view advice);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_LIMITS_H_
