// An event item and a B attribute without a server: base64 as DynamoDB's JSON carries
// it (RFC 4648 vectors, every byte, refusals), and an item docket did not write read
// back as an InfrastructureError naming the attribute.
#include "providers/dynamodb/dynamodb_event_item.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_base64.h"

namespace docket::dynamodb::event_item_test {
namespace {

TEST(DynamoDbBase64, EncodesTheRfcVectorsAndDecodesThemBack) {
  const std::pair<std::string_view, std::string_view> vectors[] = {{"", ""},
                                                                   {"f", "Zg=="},
                                                                   {"fo", "Zm8="},
                                                                   {"foo", "Zm9v"},
                                                                   {"foob", "Zm9vYg=="},
                                                                   {"fooba", "Zm9vYmE="},
                                                                   {"foobar", "Zm9vYmFy"}};
  for (const auto& [bytes, text] : vectors) {
    EXPECT_EQ(base64_encode(bytes), text);
    EXPECT_EQ(base64_decode(text), std::string(bytes));
  }
  std::string every;
  for (int b = 0; b < 256; ++b) {
    every += static_cast<char>(b);
  }
  EXPECT_EQ(base64_decode(base64_encode(every)), every);
}

TEST(DynamoDbBase64, RefusesWhatIsNotPaddedBase64) {
  EXPECT_EQ(base64_decode("Zm9"), std::nullopt);       // not a multiple of 4
  EXPECT_EQ(base64_decode("Zm9*"), std::nullopt);      // outside the alphabet
  EXPECT_EQ(base64_decode("Zg==Zg=="), std::nullopt);  // padding before the end
  EXPECT_EQ(base64_decode("Z==="), std::nullopt);
}

TEST(DynamoDbEventItem, AnItemDocketDidNotWriteIsAnInfrastructureErrorNamingTheAttribute) {
  const StreamId stream(TenantId("acme"), "account", "A-1");
  RecordedEvent event{.stream = stream, .type = "Opened", .payload = "x"};
  event.event_id = Uuid::v7();
  nlohmann::json item = event_item("t:acme:account:A-1", event);
  EXPECT_EQ(read_event_item(item, stream, "the store"), event);

  item["payload"] = {{"B", "not base64"}};
  try {
    read_event_item(item, stream, "the store");
    FAIL() << "no refusal";
  } catch (const InfrastructureError& e) {
    EXPECT_NE(std::string(e.what()).find("'payload'"), std::string::npos) << e.what();
  }
  item["payload"] = binary_value("x");
  item["event_id"] = string_value("not-a-uuid");
  EXPECT_THROW(read_event_item(item, stream, "the store"), InfrastructureError);
}

}  // namespace
}  // namespace docket::dynamodb::event_item_test
