#include "providers/firestore/firestore_service_error.h"

#include <gtest/gtest.h>

namespace docket::firestore::detail {
namespace firestore_service_error_test {

TEST(FirestoreServiceError, ReadsTheStatusAndMessageOfAnErrorAnswer) {
  const ServiceError error = parse_service_error(
      400,
      R"({"error":{"code":400,"message":"stored version differs","status":"FAILED_PRECONDITION"}})");
  EXPECT_EQ(error.code, Code::kFailedPrecondition);
  EXPECT_EQ(error.status, "FAILED_PRECONDITION");
  EXPECT_EQ(error.message, "stored version differs");
  EXPECT_EQ(parse_service_error(409, R"([{"error":{"code":409,"status":"ABORTED"}}])").code,
            Code::kAborted);
}

TEST(FirestoreServiceError, AnAnswerThatIsNoJsonTakesItsCodeFromTheHttpStatus) {
  const ServiceError error = parse_service_error(503, "<html>busy</html>");
  EXPECT_EQ(error.code, Code::kUnavailable);
  EXPECT_EQ(error.status, "HTTP 503");
  EXPECT_EQ(error.message, "<html>busy</html>");
  EXPECT_EQ(parse_service_error(429, "").code, Code::kResourceExhausted);
  EXPECT_EQ(parse_service_error(418, "").code, Code::kOther);
}

TEST(FirestoreServiceError, CodeNamesRoundTrip) {
  for (const Code code : {Code::kAborted, Code::kUnavailable, Code::kResourceExhausted,
                          Code::kAlreadyExists, Code::kUnauthenticated}) {
    EXPECT_EQ(parse_code(code_name(code)), code);
  }
  EXPECT_EQ(parse_code("NOPE"), Code::kOther);
}

}  // namespace firestore_service_error_test
}  // namespace docket::firestore::detail
