// The Pub/Sub transport's bench part (bench/bench_transport.h): the raw publisher
// (pubsub_raw_publisher.h) and the run's groups, each the subscription PubSubTransport
// names for (destination, group), on a client of its own per operation.
//
// Pub/Sub has no backlog count (the service's is a Cloud Monitoring metric, minutes late;
// the emulator has none): queued() counts by pulling with returnImmediately and
// acknowledging until a pull answers nothing, so it empties the subscription as it counts.
// purge() seeks the subscription to now (:seek with a time, which acknowledges everything
// published before it), or pulls and acknowledges where :seek is unimplemented (the
// emulator answers 501 for the run's subscriptions, which have message ordering). remove() deletes
// the subscription, the destination's topic and the dead-letter topic docket created with it.
#include <chrono>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>

#include "bench_transport.h"
#include "docket/core/error.h"
#include "docket/pubsub/transport.h"
#include "pubsub_raw_publisher.h"
#include "transports/pubsub/pubsub_client.h"
#include "transports/pubsub/pubsub_group_removal.h"
#include "transports/pubsub/pubsub_url.h"

namespace docket::pubsub {
namespace {

using kit::http::Replay;

// The subscription of `group` on `destination`, for one operation.
class RunSubscription {
 public:
  RunSubscription(std::string_view url, std::string_view destination, std::string_view group)
      : client_(detail::parse_pubsub_url(url)) {
    const PubSubTransport transport(url);
    subscription_ = client_.url().project_path() + "/subscriptions/" +
                    transport.subscription_name(destination, group);
  }

  // Pulls what is there, acknowledges it and returns how many; 0 when a pull answers
  // nothing. Throws InfrastructureError when the subscription does not exist.
  std::uint64_t pull_and_acknowledge() const {
    const nlohmann::json pulled =
        call("POST", subscription_ + ":pull", {{"maxMessages", 1000}, {"returnImmediately", true}},
             "pulling from");
    if (!pulled.contains("receivedMessages") || !pulled["receivedMessages"].is_array())
      return 0;
    nlohmann::json ack_ids = nlohmann::json::array();
    for (const nlohmann::json& message : pulled["receivedMessages"])
      ack_ids.push_back(message.value("ackId", ""));
    if (ack_ids.empty())
      return 0;
    call("POST", subscription_ + ":acknowledge", {{"ackIds", ack_ids}}, "acknowledging on");
    return ack_ids.size();
  }

  // Acknowledges everything published to the subscription so far: seeks it to now, or
  // where the server does not implement that (the emulator, for a subscription with
  // message ordering), pulls and acknowledges until a pull answers nothing.
  void purge() const {
    const std::string path = subscription_ + ":seek";
    const std::string what = client_.describe() + " (bench): seeking to now on " + path;
    const detail::Answer answer =
        client_.call("POST", path, {{"time", rfc3339_now()}}, Replay::kSafe, what);
    if (answer.ok())
      return;
    if (answer.status != "UNIMPLEMENTED")
      throw InfrastructureError(what + " failed: " + answer.error_text());
    while (pull_and_acknowledge() > 0) {
    }
  }

 private:
  static std::string rfc3339_now() {
    const auto now = std::chrono::system_clock::now();
    const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(
                            now.time_since_epoch() % std::chrono::seconds(1))
                            .count();
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[40];
    const std::size_t length = std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(text + length, sizeof text - length, ".%06lldZ", static_cast<long long>(micros));
    return text;
  }

  nlohmann::json call(std::string_view method, const std::string& path,
                      const nlohmann::json& request, std::string_view doing) const {
    const std::string what = client_.describe() + " (bench): " + std::string(doing) + " " + path;
    const detail::Answer answer = client_.call(method, path, request, Replay::kSafe, what);
    if (!answer.ok())
      throw InfrastructureError(what + " failed: " + answer.error_text());
    return answer.body;
  }

  detail::Client client_;
  std::string subscription_;
};

class PubSubBench final : public bench::TransportBench {
 public:
  std::string_view example_url() const noexcept override {
    return "pubsub://127.0.0.1:8085?project=docket-bench";
  }

  std::unique_ptr<bench::RawPublishSession> raw_session(
      std::string_view url, std::span<const TransportMessage> messages) const override {
    return std::make_unique<detail::RawPublisher>(url, messages);
  }

  // Counts by consuming (see the header comment): the subscription is empty afterwards.
  std::uint64_t queued(std::string_view url, std::string_view destination,
                       std::string_view group) const override {
    const RunSubscription subscription(url, destination, group);
    std::uint64_t count = 0;
    while (const std::uint64_t pulled = subscription.pull_and_acknowledge())
      count += pulled;
    return count;
  }

  void purge(std::string_view url, std::string_view destination,
             std::string_view group) const override {
    RunSubscription(url, destination, group).purge();
  }

  void remove(std::string_view url, std::string_view destination,
              std::string_view group) const override {
    detail::remove_group(url, destination, group);
  }
};

}  // namespace

const bench::TransportBench& bench_transport() {
  static const PubSubBench bench;
  return bench;
}

}  // namespace docket::pubsub
