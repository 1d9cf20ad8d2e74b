// The raw limit of `docket bench relay` on Google Pub/Sub: the run's messages published
// with one plain :publish request per batch (REST v1, JSON) on the transport's HTTP
// client, with no docket code in the loop.
//
// Set-up (not measured) uses the transport's layers: the URL and the client
// (pubsub_url.h, pubsub_client.h, so that a server down or a missing token is the error
// docket gives), each message's topic named as docket names it (pubsub_names.h) and its
// PubsubMessage encoded as docket's transport encodes it (pubsub_wire.h: the same data,
// CloudEvents attributes and ordering key). The measured loop is, per batch, for each run
// of messages to one topic (cut at Pub/Sub's 1000 messages or 10 MB a request), the
// request body built from the encoded messages and one POST .../topics/T:publish, whose
// answer must carry a message id per message. There is no topology check in the loop:
// docket's transport declared the run's subscriptions before anything is published.
//
// Invariant: a request not answered 200 with one messageId per message, or not answered
// at all within the client's retries, ends the session with an InfrastructureError naming
// the server, the topic and the first message of the request.
//
// Thread-safety: none; one thread at a time.
#ifndef DOCKET_TRANSPORTS_PUBSUB_BENCH_PUBSUB_RAW_PUBLISHER_H_
#define DOCKET_TRANSPORTS_PUBSUB_BENCH_PUBSUB_RAW_PUBLISHER_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "bench_transport.h"
#include "transports/pubsub/pubsub_client.h"

namespace docket::pubsub::detail {

class RawPublisher final : public bench::RawPublishSession {
 public:
  // Parses `url` and encodes `messages`. Throws ConfigurationError for a URL that does not
  // parse (or pubsub://googleapis without a token), InvalidInputError for a message
  // docket's transport would refuse.
  RawPublisher(std::string_view url, std::span<const TransportMessage> messages);

  void publish(bench::ItemRange items, std::size_t batch) override;
  std::uint64_t confirm_waits() const noexcept override { return confirm_waits_; }
  std::uint64_t confirmed() const noexcept override { return confirmed_; }

 private:
  struct Wire {
    std::string publish_path;  // "projects/P/topics/T:publish"
    nlohmann::json message;    // the PubsubMessage, as docket's transport sends it
    std::size_t request_bytes = 0;
    std::string message_id;  // docket's, for errors
  };
  // Sends messages [first, end) in as few :publish requests as one topic per request
  // and Pub/Sub's request limits allow; returns once each is answered.
  void publish_batch(std::size_t first, std::size_t end);
  // Sends messages [first, end), all to one topic, in one request.
  void publish_request(std::size_t first, std::size_t end);
  [[noreturn]] void fail(const std::string& problem) const;

  Client client_;
  std::vector<Wire> messages_;
  std::uint64_t confirm_waits_ = 0;
  std::uint64_t confirmed_ = 0;
};

}  // namespace docket::pubsub::detail

#endif  // DOCKET_TRANSPORTS_PUBSUB_BENCH_PUBSUB_RAW_PUBLISHER_H_
