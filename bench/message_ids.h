// The message ids of a benchmark run, made before the clock starts and kept compactly
// (36 bytes each, no per-id allocation) so that a million of them do not dominate
// the peak RSS the run reports.
//
// Time-ordered ids are UUIDv7 text as docket's outbox makes them: each one sorts after
// the previous, so B-tree inserts stay at the right edge of the index. Random ids are
// UUIDv4 text, the worst case for a B-tree (inserts land anywhere).
//
// Thread-safety: immutable after construction; id() may be called from many threads.
#ifndef DOCKET_BENCH_MESSAGE_IDS_H_
#define DOCKET_BENCH_MESSAGE_IDS_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace docket::bench {

enum class IdOrder {
  kTimeOrdered,  // UUIDv7
  kRandom,       // UUIDv4
};

// "uuidv7" or "uuidv4".
std::string_view to_string(IdOrder order) noexcept;

class MessageIds {
 public:
  static constexpr std::size_t kIdBytes = 36;  // canonical 8-4-4-4-12 text

  MessageIds(std::size_t count, IdOrder order);

  std::size_t size() const noexcept { return text_.size() / kIdBytes; }
  // The i-th id; valid as long as this object lives.
  std::string_view id(std::size_t i) const noexcept {
    return {text_.data() + i * kIdBytes, kIdBytes};
  }

 private:
  std::string text_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_MESSAGE_IDS_H_
