// An event item without a server: an item docket did not write read back as an
// InfrastructureError naming the attribute.
#include "providers/dynamodb/dynamodb_event_item.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "providers/dynamodb/dynamodb_attribute.h"

namespace docket::dynamodb::detail::event_item_test {
namespace {

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
}  // namespace docket::dynamodb::detail::event_item_test
