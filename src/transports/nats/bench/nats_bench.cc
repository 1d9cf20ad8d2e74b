// The NATS transport's bench part (bench/bench_transport.h): the raw publisher
// (nats_raw_publisher.h) and the run's groups, each the durable consumer NatsTransport
// names for (destination, group): counted by its backlog, emptied by purging the
// destination's subject from the stream, removed with it.
#include <memory>
#include <string>

#include "bench_transport.h"
#include "docket/nats/transport.h"
#include "nats_raw_publisher.h"
#include "transports/nats/nats_connection.h"
#include "transports/nats/nats_topology.h"

namespace docket::nats {
namespace {

void purge_subject(const detail::Connection& connection, std::string_view destination) {
  const std::string subject(destination);
  jsOptions options;
  jsOptions_Init(&options);
  options.Wait = connection.url().timeout.count();
  options.Stream.Purge.Subject = subject.c_str();
  jsErrCode code = static_cast<jsErrCode>(0);
  connection.check(
      js_PurgeStream(connection.jetstream(), connection.url().stream.c_str(), &options, &code),
      code, "purging subject '" + subject + "'");
}

class NatsBench final : public bench::TransportBench {
 public:
  std::string_view example_url() const noexcept override {
    return "nats://user:password@127.0.0.1:4222?stream=DOCKET_BENCH&subject=*.throughput,"
           "*.latency";
  }

  std::unique_ptr<bench::RawPublishSession> raw_session(
      std::string_view url, std::span<const TransportMessage> messages) const override {
    return std::make_unique<detail::RawPublisher>(url, messages);
  }

  std::uint64_t queued(std::string_view url, std::string_view destination,
                       std::string_view group) const override {
    return detail::consumer_backlog(detail::Connection(detail::parse_server_url(url)),
                                    NatsTransport(url).consumer_name(destination, group));
  }

  void purge(std::string_view url, std::string_view destination,
             std::string_view /*group*/) const override {
    purge_subject(detail::Connection(detail::parse_server_url(url)), destination);
  }

  void remove(std::string_view url, std::string_view destination,
              std::string_view group) const override {
    const detail::Connection connection(detail::parse_server_url(url));
    detail::delete_consumer(connection, NatsTransport(url).consumer_name(destination, group));
    purge_subject(connection, destination);
  }
};

}  // namespace

const bench::TransportBench& bench_transport() {
  static const NatsBench bench;
  return bench;
}

}  // namespace docket::nats
