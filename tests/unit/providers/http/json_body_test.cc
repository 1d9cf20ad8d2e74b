// kit::http::json_body: a request is written as JSON, or refused, naming the call and
// the remedy, when it holds bytes that are not UTF-8.
#include "providers/kit/http/json_body.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "docket/core/error.h"

namespace docket::kit::http {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(JsonBody, ARequestIsWrittenAsCompactJson) {
  const nlohmann::json request = {{"TableName", "app_inbox"}, {"Key", {{"id", "\xc3\xa9"}}}};
  EXPECT_EQ(json_body(request, "PutItem", "unused"),
            R"({"Key":{"id":"é"},"TableName":"app_inbox"})");
}

TEST(JsonBody, BytesThatAreNotUtf8AreRefusedNamingTheCallAndTheRemedy) {
  const nlohmann::json request = {{"fields", {{"name", std::string("ab\xff")}}}};
  EXPECT_THAT(
      [&] { json_body(request, "Firestore commit on 'app_things'", "store them as bytes"); },
      ThrowsMessage<InvalidInputError>(AllOf(HasSubstr("Firestore commit on 'app_things'"),
                                             HasSubstr("not valid UTF-8"),
                                             HasSubstr("store them as bytes"))));
}

}  // namespace
}  // namespace docket::kit::http
