// The base of the tests that run against the real NATS server at DOCKET_TEST_NATS_URL
// (scripts/nats-start.sh): each test's streams are its own (named after the test and
// this process) and deleted when it ends. Without the variable every test fails,
// saying how to start the server; none is skipped silently.
//
// Thread-safety: gtest fixtures, one test at a time.
#ifndef DOCKET_TRANSPORTS_NATS_TESTS_NATS_SERVER_FIXTURE_H_
#define DOCKET_TRANSPORTS_NATS_TESTS_NATS_SERVER_FIXTURE_H_

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "transports/nats/nats_url.h"

namespace docket::nats::detail::test {

class NatsServerTest : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;

  // A name unique to this test and process: "<what>-<test>-<pid>".
  std::string entity_name(std::string_view what) const;
  // The test server's URL text with `user` (the URL's password), `stream` (deleted when
  // the test ends), `subjects` and `extra` options ("&a=b").
  std::string url_text(std::string_view user, std::string_view stream, std::string_view subjects,
                       std::string_view extra = "");

  ServerUrl url_;  // the test server's, as given

 private:
  std::vector<std::string> streams_;
};

}  // namespace docket::nats::detail::test

#endif  // DOCKET_TRANSPORTS_NATS_TESTS_NATS_SERVER_FIXTURE_H_
