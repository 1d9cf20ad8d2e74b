// A stable 64-bit hash for deterministic decisions (retry jitter, injected faults):
// the same inputs give the same value on every run, platform and thread.
//
// Thread-safety: pure functions.
#ifndef DOCKET_CORE_STABLE_HASH_H_
#define DOCKET_CORE_STABLE_HASH_H_

#include <cstdint>
#include <string_view>

namespace docket::core {

// FNV-1a over `text` mixed with `salt` and `n` through splitmix64's finaliser.
std::uint64_t stable_hash(std::uint64_t salt, std::string_view text, std::uint64_t n) noexcept;

// The hash mapped to [0, 1).
double unit_interval(std::uint64_t hash) noexcept;

}  // namespace docket::core

#endif  // DOCKET_CORE_STABLE_HASH_H_
