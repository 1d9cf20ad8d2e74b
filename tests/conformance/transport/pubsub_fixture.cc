// The Pub/Sub transport under the transport conformance suite, on the Pub/Sub emulator
// at DOCKET_TEST_PUBSUB_URL (scripts/pubsub-start.sh): each test gets a topic_prefix of
// its own and deletes every topic and subscription under it afterwards. The URL's
// max_message_size is 4 KiB, so that the oversized message is refused before it is
// sent.
//
// A subscription receives only what is published after it exists (Pub/Sub), and the
// suite publishes before it subscribes: fresh_destination() declares the subscriptions
// of the groups the suite's tests subscribe (kGroups on the destination,
// kDeadLetterGroups on its dead-letter destination), as an application declares its
// groups before its relay publishes. The unroutable destination is a topic that does
// not exist. The emulator is not restarted (its topics do not survive a restart), so
// the broker-restart tests skip.
#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "docket/pubsub/transport.h"
#include "support/unique_name.h"
#include "transport_fixture.h"
#include "transports/pubsub/pubsub_client.h"

namespace docket::conformance {
namespace pubsub_fixture {
namespace {

constexpr std::size_t kPubSubMaxMessageBytes = 4096;
// transport_suite_test.cc and consumer_runner_test.cc subscribe these ("": the default).
const std::vector<std::string> kGroups = {"conformance", "billing"};
const std::vector<std::string> kDeadLetterGroups = {"operators", ""};

std::string emulator_url() {
  const char* url = std::getenv("DOCKET_TEST_PUBSUB_URL");
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        "DOCKET_TEST_PUBSUB_URL is not set, and the pubsub transport conformance cases need "
        "the Pub/Sub emulator. Start the throwaway one and export its URL:\n"
        "  export DOCKET_TEST_PUBSUB_URL=$(scripts/pubsub-start.sh)");
  }
  return url;
}

std::string unique_prefix() {
  return "dkt-conformance-" + test_support::unique_suffix() + "-";
}

class PubSubFixture final : public TransportFixture {
 public:
  PubSubFixture()
      : base_url_(emulator_url()),
        prefix_(unique_prefix()),
        transport_(base_url_ + "&topic_prefix=" + prefix_ +
                   "&max_message_size=" + std::to_string(kPubSubMaxMessageBytes)) {}

  ~PubSubFixture() override {
    try {
      delete_under_prefix();
    } catch (const std::exception& error) {
      ADD_FAILURE() << "cleaning up the test's Pub/Sub topics: " << error.what();
    }
  }

  Transport& transport() override { return transport_; }

  std::string fresh_destination() override {
    const std::string destination = "dest-" + std::to_string(++next_);
    for (const std::string& group : kGroups)
      transport_.declare_group(destination, group);
    for (const std::string& group : kDeadLetterGroups)
      transport_.declare_group(transport_.dead_letter_destination(destination), group);
    return destination;
  }
  std::string unroutable_destination() override { return "unbound"; }
  std::size_t oversized_payload_bytes() override { return kPubSubMaxMessageBytes + 1; }

 private:
  // Deletes the subscriptions, then the topics, whose ids start with the test's prefix.
  void delete_under_prefix() {
    const pubsub::detail::Client admin(pubsub::detail::parse_pubsub_url(base_url_));
    const std::string project = admin.url().project_path();
    for (const char* kind : {"subscriptions", "topics"}) {
      const std::string listed = std::string(kind);
      std::string page;
      do {
        const auto answer = admin.call(
            "GET",
            project + "/" + listed + "?pageSize=1000" + (page.empty() ? "" : "&pageToken=" + page),
            nullptr, kit::http::Replay::kSafe, "listing " + listed);
        if (!answer.ok())
          throw std::runtime_error("listing " + listed + ": " + answer.error_text());
        for (const auto& item : answer.body.value(listed, nlohmann::json::array())) {
          const std::string name = item.value("name", "");
          if (name.find("/" + listed + "/" + prefix_) == std::string::npos)
            continue;
          const auto deleted =
              admin.call("DELETE", name, nullptr, kit::http::Replay::kSafe, "deleting " + name);
          if (!deleted.ok() && deleted.http_status != 404)
            throw std::runtime_error("deleting " + name + ": " + deleted.error_text());
        }
        page = answer.body.value("nextPageToken", "");
      } while (!page.empty());
    }
  }

  std::string base_url_;
  std::string prefix_;
  pubsub::PubSubTransport transport_;
  int next_ = 0;
};

const TransportFixtureRegistrar kPubSub{
    {.name = "pubsub", .make = [] { return std::make_unique<PubSubFixture>(); }}};

}  // namespace
}  // namespace pubsub_fixture
}  // namespace docket::conformance
