// Bytes from the operating system's CSPRNG (getrandom(2)), for identifiers.
//
// Internal to docket::core. A small per-thread buffer keeps the cost of one id well
// below a system call. The buffer is discarded in a child after fork(): otherwise
// parent and child would hand out the same "random" bytes, and so the same ids.
//
// Thread-safety: safe from any thread; each thread draws from its own buffer.
#ifndef DOCKET_SRC_CORE_OS_RANDOM_H_
#define DOCKET_SRC_CORE_OS_RANDOM_H_

#include <cstdint>
#include <span>

namespace docket::core {

// Fills `out` with cryptographically secure random bytes. Throws InfrastructureError
// when the operating system cannot supply them (getrandom unavailable or failing).
void fill_os_random(std::span<std::uint8_t> out);

}  // namespace docket::core

#endif  // DOCKET_SRC_CORE_OS_RANDOM_H_
