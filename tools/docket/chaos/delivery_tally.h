// The counts of a `docket chaos` run across a broker (--transport), which keeps no count
// docket can read back: copies the broker confirmed, deliveries, redeliveries, and
// deliveries the inbox absorbed as duplicates, counted by the relay and consumer
// processes as they go, so that they survive those processes' SIGKILLs.
//
// Each count is a file of the run's directory whose size is the count: adding appends
// bytes with one write(2) on an O_APPEND descriptor, which the kernel holds once the
// call returns, whatever becomes of the process. A process killed between the event
// and its count leaves it uncounted: the counts are the story of the run, never its
// verdict (chaos_check.h reads the store for that).
//
// Thread-safety: one DeliveryTally per thread; any number of processes share the files.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_DELIVERY_TALLY_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_DELIVERY_TALLY_H_

#include <array>
#include <cstddef>
#include <string>

#include "chaos_queue.h"

namespace docket::tool {

class DeliveryTally {
 public:
  enum class Count { kPublished, kDeliveries, kRedeliveries, kAbsorbed };

  // Opens (creating when missing) the count files in the directory `dir`. Throws
  // InfrastructureError naming the file when one cannot be opened.
  explicit DeliveryTally(const std::string& dir);
  ~DeliveryTally();
  DeliveryTally(const DeliveryTally&) = delete;
  DeliveryTally& operator=(const DeliveryTally&) = delete;

  // Adds `n` to `count`. Throws InfrastructureError when the write fails.
  void add(Count count, std::size_t n = 1);

  // Every count; depth is 0 (the broker's queue depth is not the tally's to know).
  QueueCounters read() const;

 private:
  std::string dir_;
  std::array<int, 4> files_{-1, -1, -1, -1};
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_DELIVERY_TALLY_H_
