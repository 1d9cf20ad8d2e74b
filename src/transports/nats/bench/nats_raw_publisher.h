// The raw limit of `docket bench relay` on NATS JetStream: the run's messages published
// asynchronously through the NATS C client directly, each batch's PubAcks awaited, with
// no docket code in the loop.
//
// Set-up (not measured) uses the transport's client layer: the connection and login
// (nats_connection.h, so that a server down or a wrong password is the error docket
// gives), the stream declared or checked from the URL, and each message converted to
// what docket's transport sends (nats_wire.h: the same subject, data and headers,
// Nats-Msg-Id and Nats-Expected-Stream included), kept as plain strings. The measured
// loop is plain C client: per batch, for each message natsMsg_Create, its headers added
// and js_PublishMsgAsync, then js_PublishAsyncComplete for the batch. A message published
// again (the next batch size) gets Nats-Msg-Id "<id>/<n>", so that the stream stores it.
//
// Invariant: a message the stream refuses, or a batch not acknowledged within the URL's
// timeout, ends the session with an InfrastructureError naming the server and the
// message.
//
// Thread-safety: none; one thread at a time.
#ifndef DOCKET_TRANSPORTS_NATS_BENCH_NATS_RAW_PUBLISHER_H_
#define DOCKET_TRANSPORTS_NATS_BENCH_NATS_RAW_PUBLISHER_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench_transport.h"
#include "docket/core/message_header.h"
#include "transports/nats/nats_connection.h"

namespace docket::nats::detail {

class RawPublisher final : public bench::RawPublishSession {
 public:
  // Connects and logs in as `url` says and declares or checks its stream. Throws
  // ConfigurationError for a URL that does not parse or names no stream, NatsError (an
  // InfrastructureError) when the server is unreachable or refuses.
  RawPublisher(std::string_view url, std::span<const TransportMessage> messages);
  ~RawPublisher() override;

  void publish(bench::ItemRange items, std::size_t batch) override;
  std::uint64_t confirm_waits() const noexcept override { return confirm_waits_; }
  std::uint64_t confirmed() const noexcept override { return confirmed_; }

 private:
  struct Wire {
    std::string subject;
    std::string data;
    std::vector<MessageHeader> headers;
    std::size_t id_header = 0;    // the index of its Nats-Msg-Id in `headers`
    std::uint64_t published = 0;  // times this session published it
  };
  static void on_ack(jsCtx* js, natsMsg* message, jsPubAck* ack, jsPubAckErr* error, void* closure);
  [[noreturn]] void fail(const std::string& problem) const;

  std::vector<Wire> messages_;
  std::uint64_t confirm_waits_ = 0;
  std::uint64_t confirmed_ = 0;
  std::mutex mutex_;
  std::string first_error_;  // the stream's first refusal, from the ack handler
  std::atomic<std::uint64_t> acknowledged_ = 0;
  std::unique_ptr<Connection> connection_;  // last: destroyed first
};

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_BENCH_NATS_RAW_PUBLISHER_H_
