#include "outbox/chunked_publish.h"

#include <algorithm>
#include <string>
#include <unordered_set>
#include <utility>

namespace docket::detail {
namespace {

bool held_back(const TransportMessage& message, const std::unordered_set<std::string>& failed) {
  return message.ordering_key && failed.contains(*message.ordering_key);
}

}  // namespace

ChunkedPublish publish_in_chunks(Transport& transport, std::span<const TransportMessage> batch,
                                 std::size_t chunk) {
  chunk = std::max<std::size_t>(chunk, 1);
  ChunkedPublish out;
  out.results.reserve(batch.size());
  // Ordering keys with a message not confirmed so far: their later messages wait for
  // the next claim, which finds the earlier one first.
  std::unordered_set<std::string> failed_keys;
  for (std::size_t first = 0; first < batch.size(); first += chunk) {
    const std::span<const TransportMessage> part =
        batch.subspan(first, std::min(chunk, batch.size() - first));
    const bool any_held = !failed_keys.empty() &&
                          std::any_of(part.begin(), part.end(), [&](const TransportMessage& m) {
                            return held_back(m, failed_keys);
                          });
    std::vector<PublishResult> answered;
    std::vector<bool> sent(part.size(), true);
    if (!any_held) {
      answered = transport.publish_batch(part);  // the common case: no copy
      ++out.calls;
    } else {
      std::vector<TransportMessage> eligible;
      for (std::size_t i = 0; i < part.size(); ++i) {
        sent[i] = !held_back(part[i], failed_keys);
        if (sent[i]) {
          eligible.push_back(part[i]);
        }
      }
      if (!eligible.empty()) {
        answered = transport.publish_batch(eligible);
        ++out.calls;
      }
    }
    std::size_t next = 0;
    for (std::size_t i = 0; i < part.size(); ++i) {
      const TransportMessage& message = part[i];
      PublishResult result =
          sent[i] ? std::move(answered[next++])
                  : PublishResult::failed(PublishStatus::kRetryable,
                                          "not published: an earlier message of ordering key '" +
                                              *message.ordering_key +
                                              "' in the same claim was not confirmed, so this one "
                                              "waits for it (it is published again after its "
                                              "backoff)");
      if (!result.is_confirmed() && message.ordering_key) {
        failed_keys.insert(*message.ordering_key);
      }
      out.results.push_back(std::move(result));
    }
  }
  return out;
}

}  // namespace docket::detail
