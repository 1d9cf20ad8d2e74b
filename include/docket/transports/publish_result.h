// What became of one message of a published batch (Transport::publish_batch): a
// transport answers every message, in the batch's order, so that the relay marks done
// exactly the confirmed ones and backs off or parks the others with their error.
//
//   kConfirmed    the broker took responsibility for it (a publisher confirm, a Kafka
//                 delivery report without error, an SQS batch entry's success)
//   kNacked       the broker refused it this time (a negative acknowledgement): retried
//   kUnroutable   no queue or subscriber is bound to its destination (a mandatory
//                 publish returned): retried, since a binding may appear; never lost
//   kRetryable    the transport failed to hand it over (connection lost, timeout, an
//                 earlier message of its ordering key failed in this batch): retried
//   kRefused      refused for good (over the broker's size limit, a destination the
//                 application may not publish to): the relay parks it at once
//
// Thread-safety: plain value types; the functions are pure.
#ifndef DOCKET_TRANSPORTS_PUBLISH_RESULT_H_
#define DOCKET_TRANSPORTS_PUBLISH_RESULT_H_

#include <string>
#include <string_view>
#include <utility>

namespace docket {

enum class PublishStatus { kConfirmed, kNacked, kUnroutable, kRetryable, kRefused };

// "confirmed", "nacked", "unroutable", "retryable", "refused".
std::string_view to_string(PublishStatus status) noexcept;

struct PublishResult {
  PublishStatus status = PublishStatus::kConfirmed;
  // Why it was not confirmed, naming the broker, the destination and what to do; empty
  // for kConfirmed.
  std::string error{};

  static PublishResult confirmed() { return {}; }
  static PublishResult failed(PublishStatus status, std::string error) {
    return {status, std::move(error)};
  }
  bool is_confirmed() const noexcept { return status == PublishStatus::kConfirmed; }

  friend bool operator==(const PublishResult&, const PublishResult&) = default;
};

}  // namespace docket

#endif  // DOCKET_TRANSPORTS_PUBLISH_RESULT_H_
