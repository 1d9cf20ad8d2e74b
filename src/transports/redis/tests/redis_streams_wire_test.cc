// A docket message as one Redis stream entry (redis_streams_wire.h): the field layout,
// the round trip, and what is refused on either side.
#include "transports/redis/redis_streams_wire.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"
#include "docket/transports/cloudevents.h"

namespace docket::redis::streams {
namespace {

using ::testing::HasSubstr;

TransportMessage sample() {
  return TransportMessage{.tenant = "acme",
                          .envelope = Envelope{.message_id = "0190d1f4-6a2b-7c3d-8e4f-5a6b7c8d9e0f",
                                               .event_type = "OrderPlaced",
                                               .payload = "{\"total\":3}",
                                               .correlation_id = "corr-1"},
                          .destination = "orders",
                          .ordering_key = "order-7",
                          .headers = {{"x-region", "eu"}, {"data", "a header named data"}}};
}

TEST(RedisStreamsWire, ThePayloadComesFirstThenTheAttributesAndHeaders) {
  const Fields fields = encode_entry(sample());
  ASSERT_FALSE(fields.empty());
  EXPECT_EQ(fields.front(), (std::pair<std::string, std::string>{"data", "{\"total\":3}"}));
  const auto value = [&](std::string_view name) {
    for (std::size_t i = 1; i < fields.size(); ++i) {
      if (fields[i].first == name)
        return fields[i].second;
    }
    return std::string("(none)");
  };
  EXPECT_EQ(value("ce_id"), "0190d1f4-6a2b-7c3d-8e4f-5a6b7c8d9e0f");
  EXPECT_EQ(value("ce_specversion"), "1.0");
  EXPECT_EQ(value("ce_partitionkey"), "order-7");
  EXPECT_EQ(value("ce_correlationid"), "corr-1");
  EXPECT_EQ(value("x-region"), "eu");
  EXPECT_EQ(value("data"), "a header named data");  // a header, after the payload
  EXPECT_EQ(entry_bytes({{"ab", "cde"}}), 5U);
}

TEST(RedisStreamsWire, DecodesWhatItEncodes) {
  const TransportMessage sent = sample();
  const TransportMessage got = decode_entry(encode_entry(sent), "orders");
  EXPECT_EQ(got.tenant, sent.tenant);
  EXPECT_EQ(got.envelope.message_id, sent.envelope.message_id);
  EXPECT_EQ(got.envelope.payload, sent.envelope.payload);
  EXPECT_EQ(got.envelope.correlation_id, sent.envelope.correlation_id);
  EXPECT_EQ(got.destination, "orders");
  EXPECT_EQ(got.ordering_key, sent.ordering_key);
  EXPECT_EQ(got.headers, sent.headers);
}

TEST(RedisStreamsWire, RefusesAHeaderThatPassesForAnAttributeAndAForeignEntry) {
  TransportMessage message = sample();
  message.headers.push_back({"ce_id", "spoofed"});
  EXPECT_THROW(encode_entry(message), InvalidInputError);
  try {
    decode_entry({{"foo", "bar"}}, "orders");
    ADD_FAILURE() << "a foreign entry was decoded";
  } catch (const InvalidInputError& error) {
    EXPECT_THAT(error.what(), HasSubstr("first field is not 'data'"));
  }
  EXPECT_THROW(decode_entry({{"data", "{}"}, {"ce_specversion", "1.0"}}, "orders"),
               InvalidInputError);  // no id, type, source or time
}

}  // namespace
}  // namespace docket::redis::streams
