#include "providers/kit/outbox_headers.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "docket/core/error.h"

namespace docket::kit {
namespace {

TEST(OutboxHeaders, NoHeadersAreAnEmptyText) {
  EXPECT_EQ(encode_headers({}), "");
  EXPECT_TRUE(decode_headers("").empty());
}

TEST(OutboxHeaders, EveryByteAndTheOrderComeBack) {
  const std::vector<MessageHeader> headers{
      {"tenant-tier", "gold"},
      {"quote\"back\\slash", "tab\tnew\nline\x01"},
      {"b", "\xC3\xA9t\xC3\xA9 \xF0\x9F\x93\xA6"},  // UTF-8 kept as it is
      {"a", ""}};
  const std::string text = encode_headers(headers);
  EXPECT_EQ(text.substr(0, 25), R"([["tenant-tier","gold"],[)");
  EXPECT_NE(text.find("\xC3\xA9t\xC3\xA9"), std::string::npos) << text;
  EXPECT_EQ(decode_headers(text), headers);
}

TEST(OutboxHeaders, ATextDocketDidNotWriteIsRefusedByWhatIsWrong) {
  for (const char* text : {"[[\"a\"", "{\"a\":\"b\"}", "[[\"a\",1]]", "[[\"a\",\"b\",\"c\"]]",
                           "[\"a\"]", "[[\"a\",\"b\"]] trailing"}) {
    try {
      (void)decode_headers(text);
      ADD_FAILURE() << "accepted: " << text;
    } catch (const InfrastructureError& e) {
      EXPECT_NE(std::string(e.what()).find("the row was changed outside docket"), std::string::npos)
          << e.what();
    }
  }
}

}  // namespace
}  // namespace docket::kit
