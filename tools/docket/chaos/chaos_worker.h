// The three processes `docket chaos` runs and kills: the order pipeline's producer
// (orders service), relay and consumer (billing service), each a separate docket
// process (`docket chaos-worker`) on the store under test and the run's queue, or, with a
// transport, the broker it names (the relay publishes to it, the consumer subscribes).
//
// Each is resumable, as a real service must be after a crash:
//  - the producer counts the run's orders already placed and goes on with the next
//    (one producer at a time, each order committed before the next is begun, so the
//    placed orders are always 1..n);
//  - the relay claims what is due, its dead predecessor's rows once their lease ended;
//  - the consumer receives what the queue holds, its predecessor's unacknowledged
//    copies once their visibility timeout passed (across a broker: once the broker saw
//    its connection close).
//
// Thread-safety: run_chaos_worker() blocks SIGTERM and SIGINT in the calling thread
// and the threads it starts; call it from main's thread, once.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_WORKER_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_WORKER_H_

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace docket::tool {

// kSkewedRelay: a second relay, beside the first, whose clock runs ahead (docket chaos
// --clock-skew): the two claim the same outbox rows at once, and the skewed one must not
// take over a live lease early where leases are on the store's clock.
enum class ChaosRole { kProducer, kRelay, kConsumer, kSkewedRelay };

// The roles every run has.
inline constexpr ChaosRole kChaosRoles[] = {ChaosRole::kProducer, ChaosRole::kRelay,
                                            ChaosRole::kConsumer};
// Every role, kChaosRoles first.
inline constexpr ChaosRole kAllChaosRoles[] = {ChaosRole::kProducer, ChaosRole::kRelay,
                                               ChaosRole::kConsumer, ChaosRole::kSkewedRelay};

// "producer", "relay", "consumer", "skewed-relay".
std::string_view role_name(ChaosRole role) noexcept;
std::optional<ChaosRole> parse_role(std::string_view name) noexcept;

// How long a relay's claim and a consumer's receive hide a message from the next
// process: what a killed one delays its work by.
inline constexpr std::chrono::seconds kChaosLease{2};

// The consumer group billing reads the run's destination as, across a broker.
inline constexpr std::string_view kChaosGroup = "billing";

struct ChaosWorkerOptions {
  ChaosRole role = ChaosRole::kProducer;
  std::string store_url;
  std::string queue_path;  // the run's queue (chaos_queue.h), when there is no transport
  std::string run;         // the run's order id prefix
  std::uint64_t orders_per_second = 100;  // the producer's pace
  // Across a broker: the transport's URL (docket/transports/open_transport.h), the run's
  // destination (its consumer group kChaosGroup declared before the workers start) and
  // the directory of the run's counts (delivery_tally.h). Empty URL: the run's queue.
  std::string transport_url{};
  std::string destination{};
  std::string tally_dir{};
  // kSkewedRelay: how far ahead its clock (the outbox store's and the relay's) runs.
  std::chrono::seconds clock_skew{0};
};

// Runs `options.role` until SIGTERM or SIGINT, then returns. Throws what the stores
// and the queue throw (a dropped connection among them): the process then exits and
// `docket chaos` starts it again, as a supervisor would.
void run_chaos_worker(const ChaosWorkerOptions& options);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHAOS_WORKER_H_
