// publish_in_chunks: a claim published in chunks keeps the order of each ordering key
// across chunks, as one publish_batch call keeps it within a batch.
#include "outbox/chunked_publish.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace docket::detail {
namespace {

TransportMessage keyed(std::string id, std::optional<std::string> key) {
  TransportMessage m{.destination = "orders", .ordering_key = std::move(key)};
  m.envelope.message_id = std::move(id);
  return m;
}

// Nacks the messages it is told to, confirms the rest; records what it was sent.
class Recording final : public Transport {
 public:
  std::string describe() const override { return "a recording transport"; }
  std::vector<std::string> nack;
  std::vector<std::vector<std::string>> calls;

 protected:
  std::vector<PublishResult> do_publish_batch(std::span<const TransportMessage> batch) override {
    std::vector<PublishResult> results;
    calls.emplace_back();
    for (const TransportMessage& m : batch) {
      calls.back().push_back(m.envelope.message_id);
      const bool nacked = std::find(nack.begin(), nack.end(), m.envelope.message_id) != nack.end();
      results.push_back(nacked ? PublishResult::failed(PublishStatus::kNacked, "no")
                               : PublishResult::confirmed());
    }
    return results;
  }
};

TEST(PublishInChunks, HoldsBackALaterMessageOfAKeyWhoseEarlierOneFailedInAnEarlierChunk) {
  Recording transport;
  transport.nack = {"a1"};
  const std::vector<TransportMessage> batch = {keyed("a1", "a"), keyed("b1", "b"), keyed("a2", "a"),
                                               keyed("n1", std::nullopt), keyed("b2", "b")};
  const ChunkedPublish out = publish_in_chunks(transport, batch, 2);
  EXPECT_EQ(out.calls, 3U);
  const std::vector<std::vector<std::string>> expected_calls = {{"a1", "b1"}, {"n1"}, {"b2"}};
  EXPECT_EQ(transport.calls, expected_calls);
  ASSERT_EQ(out.results.size(), batch.size());
  EXPECT_EQ(out.results[0].status, PublishStatus::kNacked);
  EXPECT_TRUE(out.results[1].is_confirmed());
  EXPECT_EQ(out.results[2].status, PublishStatus::kRetryable);
  EXPECT_NE(out.results[2].error.find("ordering key 'a'"), std::string::npos)
      << out.results[2].error;
  EXPECT_TRUE(out.results[3].is_confirmed());
  EXPECT_TRUE(out.results[4].is_confirmed());
}

TEST(PublishInChunks, AChunkWhoseEveryMessageIsHeldBackMakesNoCall) {
  Recording transport;
  transport.nack = {"a1"};
  const std::vector<TransportMessage> batch = {keyed("a1", "a"), keyed("a2", "a")};
  const ChunkedPublish out = publish_in_chunks(transport, batch, 1);
  EXPECT_EQ(out.calls, 1U);
  EXPECT_EQ(out.results[1].status, PublishStatus::kRetryable);
}

TEST(PublishInChunks, AChunkOfZeroIsOneMessageACall) {
  Recording transport;
  const std::vector<TransportMessage> batch = {keyed("x", std::nullopt), keyed("y", std::nullopt)};
  EXPECT_EQ(publish_in_chunks(transport, batch, 0).calls, 2U);
}

}  // namespace
}  // namespace docket::detail
