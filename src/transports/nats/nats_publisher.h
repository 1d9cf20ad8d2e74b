// Publishing to JetStream with an acknowledgement per message: a connection of its own
// whose asynchronous publishes (js_PublishMsgAsync) are answered, each, by the stream's
// PubAck or an error, collected per message.
//
//   Publisher publisher(url);
//   std::vector<PublishAnswer> answers = publisher.publish(std::move(messages));
//
// publish() sends every message of a round without waiting, then waits up to the URL's
// timeout for their answers (one round trip per round, whatever its size):
//
//   confirmed   a PubAck: the stream stored it (or held it already: a duplicate id
//               within the duplicate window, which the stream dropped)
//   no_stream   no stream takes the subject (the server's "no responders"), or another
//               stream than the URL's does
//   too_large   over the server's max_payload (refused before sending) or the stream's
//               max_msg_size
//   rejected    the stream refused it otherwise (out of storage, say): retried later
//   lost        no answer: the connection failed or closed, or the timeout passed
//
// Invariant: every message of a round gets exactly one answer; a message the library
// took is destroyed by the acknowledgement handler or taken back when its wait ends.
//
// Thread-safety: one publish() at a time per publisher (the transport serialises them);
// the acknowledgement handler runs on the client's thread and shares only state under
// the mutex.
#ifndef DOCKET_TRANSPORTS_NATS_NATS_PUBLISHER_H_
#define DOCKET_TRANSPORTS_NATS_NATS_PUBLISHER_H_

#include <condition_variable>
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "transports/nats/nats_connection.h"

namespace docket::nats::detail {

enum class PublishOutcome { confirmed, no_stream, too_large, rejected, lost };

const char* to_string(PublishOutcome outcome) noexcept;

struct PublishAnswer {
  PublishOutcome outcome = PublishOutcome::lost;
  std::string detail{};  // the server's or client's words, for the error
};

class Publisher {
 public:
  // Connects (Connection's errors).
  explicit Publisher(const ServerUrl& url);
  ~Publisher();
  Publisher(const Publisher&) = delete;
  Publisher& operator=(const Publisher&) = delete;

  // Publishes `messages` (taken) and returns their answers, in order.
  std::vector<PublishAnswer> publish(std::vector<MsgPtr> messages);

  const Connection& connection() const noexcept { return *connection_; }

 private:
  static void on_ack(jsCtx* js, natsMsg* message, jsPubAck* ack, jsPubAckErr* error, void* closure);
  void answer(natsMsg* message, PublishAnswer answer);

  std::mutex mutex_;
  std::condition_variable answered_;
  std::map<natsMsg*, std::size_t> in_flight_;  // the round's messages the library holds
  std::vector<std::optional<PublishAnswer>> answers_;
  std::size_t unanswered_ = 0;
  // Last: destroyed first, so that no acknowledgement arrives once the rest is gone.
  std::unique_ptr<Connection> connection_;
};

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_PUBLISHER_H_
