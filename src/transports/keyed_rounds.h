// Publishing a batch in rounds that keep each ordering key's order, for a broker
// transport's do_publish_batch (docket/spi/transport.h): a message is sent only after
// every earlier message of its ordering key in the batch was confirmed, and a message
// after one of its key that was not confirmed is answered kRetryable, unsent.
//
//   KeyedRounds rounds(batch, describe());
//   ... rounds.settle(i, refused) for what cannot even be encoded ...
//   for (auto round = rounds.next(); !round.empty(); round = rounds.next()) {
//     ... send the messages of `round` together, then settle each with its answer ...
//   }
//   return std::move(rounds).results();
//
// Each round carries at most one message per ordering key, and every unkeyed message
// goes in the first: a batch of distinct keys takes one round trip, a batch of n
// messages of one key takes n. Used by every broker transport that waits for its
// broker's answer per message (RabbitMQ's publisher confirms, JetStream's PubAcks), so
// that the rule lives in one place.
//
// Invariants: results() answers every message once, in the batch's order; next() never
// returns a message that is settled, nor one whose key has an earlier message that is
// unsettled or was not confirmed.
//
// Thread-safety: none; one publish_batch call owns one KeyedRounds.
#ifndef DOCKET_TRANSPORTS_KEYED_ROUNDS_H_
#define DOCKET_TRANSPORTS_KEYED_ROUNDS_H_

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "docket/transports/publish_result.h"
#include "docket/transports/transport_message.h"

namespace docket::transports {

class KeyedRounds {
 public:
  // `broker` names the transport in the errors it writes ("RabbitMQ broker amqp://...").
  KeyedRounds(std::span<const TransportMessage> batch, std::string broker)
      : batch_(batch), broker_(std::move(broker)), results_(batch.size()) {}

  // Answers message `i` (once). A result that is not a confirm holds back every later
  // message of its key.
  void settle(std::size_t i, PublishResult result) {
    if (!result.is_confirmed() && batch_[i].ordering_key)
      first_failure_.try_emplace(*batch_[i].ordering_key, i);
    results_[i] = std::move(result);
  }

  bool settled(std::size_t i) const { return results_[i].has_value(); }

  // The indices, ascending, of the next round's messages; empty when every message is
  // settled. Settles as kRetryable, unsent, each message after an unconfirmed one of
  // its key.
  std::vector<std::size_t> next() {
    std::vector<std::size_t> round;
    std::set<std::string> keys_in_round;
    for (std::size_t i = 0; i < batch_.size(); ++i) {
      if (results_[i])
        continue;
      const auto& key = batch_[i].ordering_key;
      if (key) {
        const auto failed = first_failure_.find(*key);
        if (failed != first_failure_.end() && failed->second < i) {
          results_[i] = PublishResult::failed(
              PublishStatus::kRetryable,
              broker_ + ": message '" + batch_[i].envelope.message_id +
                  "' was not sent: message '" + batch_[failed->second].envelope.message_id +
                  "' of its ordering key '" + *key +
                  "' before it in the batch was not confirmed; it is published again after it");
          continue;
        }
        if (!keys_in_round.insert(*key).second)
          continue;  // the next round, once the earlier one of its key is confirmed
      }
      round.push_back(i);
    }
    return round;
  }

  // Settles every message not settled yet with why(i): the whole batch failed (the
  // connection could not be opened, say).
  void settle_rest(const std::function<PublishResult(std::size_t)>& why) {
    for (std::size_t i = 0; i < batch_.size(); ++i) {
      if (!results_[i])
        results_[i] = why(i);
    }
  }

  // One result per message, in the batch's order. Throws std::logic_error when one is
  // unsettled (a transport's bug).
  std::vector<PublishResult> results() && {
    std::vector<PublishResult> answered;
    answered.reserve(results_.size());
    for (auto& result : results_) {
      if (!result)
        throw std::logic_error(broker_ + ": a message of the batch was left unanswered");
      answered.push_back(std::move(*result));
    }
    return answered;
  }

 private:
  std::span<const TransportMessage> batch_;
  std::string broker_;
  std::vector<std::optional<PublishResult>> results_;
  // Per ordering key, the index of its first message that was not confirmed.
  std::map<std::string, std::size_t> first_failure_;
};

}  // namespace docket::transports

#endif  // DOCKET_TRANSPORTS_KEYED_ROUNDS_H_
