// The CloudEvents 1.0 binary-mode wire format (docket/transports/cloudevents.h): a
// message survives the round trip, a foreign producer's event reads, and malformed
// inbound headers are refused naming the header.
#include "docket/transports/cloudevents.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"

namespace docket {
namespace cloudevents_test {

TransportMessage full_message() {
  return TransportMessage{
      .tenant = "acme",
      .envelope = {.message_id = "0190a5f2-7d7e-7a1b-9c2d-3e4f5a6b7c8d",
                   .event_type = "OrderPlaced",
                   .payload = "{\"order\":7}",
                   .occurred_at = Timestamp(std::chrono::microseconds(1'767'225'600'123'456)),
                   .source = "orders",
                   .causation_id = "cause-1",
                   .correlation_id = "corr-1",
                   .traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
                   .tracestate = "vendor=1"},
      .destination = "orders",
      .ordering_key = "order-7",
      .headers = {{"x-region", "eu"}}};
}

std::string value_of(const std::vector<MessageHeader>& headers, std::string_view name) {
  for (const MessageHeader& h : headers) {
    if (h.name == name) {
      return h.value;
    }
  }
  return "(absent)";
}

TEST(CloudEvents, WritesTheEnvelopeAsBinaryModeAttributes) {
  const auto headers = to_cloudevents_headers(full_message(), kCloudEventsKafkaPrefix);
  EXPECT_EQ(value_of(headers, "ce_specversion"), "1.0");
  EXPECT_EQ(value_of(headers, "ce_id"), "0190a5f2-7d7e-7a1b-9c2d-3e4f5a6b7c8d");
  EXPECT_EQ(value_of(headers, "ce_type"), "OrderPlaced");
  EXPECT_EQ(value_of(headers, "ce_source"), "orders");
  EXPECT_EQ(value_of(headers, "ce_time"), "2026-01-01T00:00:00.123456Z");
  EXPECT_EQ(value_of(headers, "ce_tenant"), "acme");
  EXPECT_EQ(value_of(headers, "ce_causationid"), "cause-1");
  EXPECT_EQ(value_of(headers, "ce_correlationid"), "corr-1");
  EXPECT_EQ(value_of(headers, "ce_traceparent"),
            "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01");
  EXPECT_EQ(value_of(headers, "ce_tracestate"), "vendor=1");
  EXPECT_EQ(value_of(headers, "ce_partitionkey"), "order-7");
  EXPECT_EQ(value_of(headers, "content-type"), "application/json");
  EXPECT_EQ(value_of(headers, "x-region"), "eu");
}

TEST(CloudEvents, ARoundTripGivesBackTheMessage) {
  for (const std::string_view prefix :
       {kCloudEventsKafkaPrefix, kCloudEventsAmqpPrefix, kCloudEventsHttpPrefix}) {
    const TransportMessage sent = full_message();
    const auto headers = to_cloudevents_headers(sent, prefix);
    const TransportMessage got =
        from_cloudevents_headers(headers, sent.envelope.payload, "orders", prefix);
    EXPECT_EQ(got.tenant, sent.tenant);
    EXPECT_EQ(got.envelope.message_id, sent.envelope.message_id);
    EXPECT_EQ(got.envelope.event_type, sent.envelope.event_type);
    EXPECT_EQ(got.envelope.payload, sent.envelope.payload);
    EXPECT_EQ(got.envelope.occurred_at, sent.envelope.occurred_at);
    EXPECT_EQ(got.envelope.source, sent.envelope.source);
    EXPECT_EQ(got.envelope.causation_id, sent.envelope.causation_id);
    EXPECT_EQ(got.envelope.correlation_id, sent.envelope.correlation_id);
    EXPECT_EQ(got.envelope.traceparent, sent.envelope.traceparent);
    EXPECT_EQ(got.envelope.tracestate, sent.envelope.tracestate);
    EXPECT_EQ(got.destination, "orders");
    EXPECT_EQ(got.ordering_key, sent.ordering_key);
    EXPECT_EQ(got.headers, sent.headers);
  }
}

TEST(CloudEvents, ReadsAForeignProducersEvent) {
  const std::vector<MessageHeader> headers{{"ce-specversion", "1.0"},
                                           {"ce-id", "A234-1234-1234"},
                                           {"ce-type", "com.example.someevent"},
                                           {"ce-source", "/mycontext"},
                                           {"ce-time", "2018-04-05T17:31:00+02:00"},
                                           {"ce-comexampleextension1", "value"},
                                           {"content-type", "text/xml"}};
  const TransportMessage got =
      from_cloudevents_headers(headers, "<much wow=\"xml\"/>", "events", kCloudEventsHttpPrefix);
  EXPECT_EQ(got.tenant, "__untenanted__");
  EXPECT_EQ(got.envelope.message_id, "A234-1234-1234");
  EXPECT_EQ(got.envelope.source, "/mycontext");
  EXPECT_EQ(format_timestamp(got.envelope.occurred_at), "2018-04-05T15:31:00.000000Z");
  EXPECT_EQ(got.headers, (std::vector<MessageHeader>{{"ce-comexampleextension1", "value"},
                                                     {"content-type", "text/xml"}}));
}

TEST(CloudEvents, RefusesMalformedInboundHeadersNamingTheHeader) {
  const auto refused_naming = [](std::vector<MessageHeader> headers, const std::string& header) {
    try {
      from_cloudevents_headers(headers, "{}", "orders", kCloudEventsKafkaPrefix);
      ADD_FAILURE() << "accepted; expected a refusal naming " << header;
    } catch (const InvalidInputError& e) {
      EXPECT_NE(std::string(e.what()).find("'" + header + "'"), std::string::npos) << e.what();
    }
  };
  const auto good = to_cloudevents_headers(full_message(), kCloudEventsKafkaPrefix);
  const auto without = [&](std::string_view name) {
    std::vector<MessageHeader> h;
    for (const MessageHeader& header : good) {
      if (header.name != name) {
        h.push_back(header);
      }
    }
    return h;
  };
  const auto replaced = [&](std::string_view name, std::string value) {
    auto h = without(name);
    h.push_back({std::string(name), std::move(value)});
    return h;
  };
  refused_naming(without("ce_id"), "ce_id");
  refused_naming(without("ce_specversion"), "ce_specversion");
  refused_naming(replaced("ce_specversion", "0.3"), "ce_specversion");
  refused_naming(replaced("ce_time", "yesterday"), "ce_time");
  refused_naming(replaced("ce_time", "2026-02-30T00:00:00Z"), "ce_time");
  refused_naming(replaced("ce_id", std::string(300, 'x')), "ce_id");
  auto twice = good;
  twice.push_back({"ce_type", "Other"});
  refused_naming(twice, "ce_type");
  TransportMessage clash = full_message();
  clash.headers.push_back({"ce_custom", "x"});
  EXPECT_THROW(to_cloudevents_headers(clash, kCloudEventsKafkaPrefix), InvalidInputError);
}

}  // namespace cloudevents_test
}  // namespace docket
