#include "core/os_random.h"

#include <pthread.h>
#include <sys/random.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "docket/core/error.h"

namespace docket::core {
namespace {

// Incremented in the child of every fork(); a buffer filled under an older value
// holds bytes the parent may also use.
std::atomic<std::uint64_t> fork_generation{0};

void on_fork_child() noexcept {
  fork_generation.fetch_add(1, std::memory_order_relaxed);
}

void register_fork_handler() {
  static const int registered = [] {
    const int rc = pthread_atfork(nullptr, nullptr, &on_fork_child);
    if (rc != 0) {
      throw InfrastructureError("pthread_atfork failed (" + std::string(std::strerror(rc)) +
                                "): docket cannot protect its random-id buffer across fork(). "
                                "The process is likely out of memory.");
    }
    return rc;
  }();
  static_cast<void>(registered);
}

void getrandom_exactly(std::uint8_t* out, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t got = ::getrandom(out + done, size - done, 0);
    if (got < 0) {
      if (errno == EINTR) {
        continue;
      }
      const int error = errno;
      throw InfrastructureError("getrandom(2) failed: " + std::string(std::strerror(error)) +
                                " (errno " + std::to_string(error) +
                                "). docket needs the kernel CSPRNG (Linux 3.17 or later) to "
                                "generate ids.");
    }
    done += static_cast<std::size_t>(got);
  }
}

// 256 bytes is the most getrandom(2) guarantees to return in one call without being
// interrupted, and serves 16 ids per refill.
struct ThreadBuffer {
  std::array<std::uint8_t, 256> bytes{};
  std::size_t used = bytes.size();  // starts empty
  std::uint64_t generation = 0;

  ~ThreadBuffer() { std::memset(bytes.data(), 0, bytes.size()); }
};

}  // namespace

void fill_os_random(std::span<std::uint8_t> out) {
  register_fork_handler();
  thread_local ThreadBuffer buffer;
  const std::uint64_t generation = fork_generation.load(std::memory_order_relaxed);
  if (buffer.generation != generation) {
    buffer.used = buffer.bytes.size();
    buffer.generation = generation;
  }
  if (out.size() > buffer.bytes.size()) {
    getrandom_exactly(out.data(), out.size());
    return;
  }
  if (buffer.bytes.size() - buffer.used < out.size()) {
    getrandom_exactly(buffer.bytes.data(), buffer.bytes.size());
    buffer.used = 0;
  }
  std::memcpy(out.data(), buffer.bytes.data() + buffer.used, out.size());
  // Bytes handed out are wiped so that they exist only in the caller's copy.
  std::memset(buffer.bytes.data() + buffer.used, 0, out.size());
  buffer.used += out.size();
}

}  // namespace docket::core
