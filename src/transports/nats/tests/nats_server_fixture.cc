#include "transports/nats/tests/nats_server_fixture.h"

#include <unistd.h>

#include <cctype>
#include <cstdlib>

#include "transports/nats/nats_connection.h"
#include "transports/nats/nats_topology.h"

namespace docket::nats::detail::test {

void NatsServerTest::SetUp() {
  const char* text = std::getenv("DOCKET_TEST_NATS_URL");
  if (text == nullptr || *text == '\0') {
    FAIL() << "DOCKET_TEST_NATS_URL is not set, and these tests need a real NATS server with "
              "JetStream. Start the throwaway one and export its URL:\n"
              "  export DOCKET_TEST_NATS_URL=$(scripts/nats-start.sh)";
  }
  url_ = parse_server_url(text);
}

void NatsServerTest::TearDown() {
  for (const std::string& stream : streams_) {
    try {
      ServerUrl owner = url_;
      owner.stream = stream;
      delete_stream(Connection(owner));
    } catch (const std::exception& error) {
      ADD_FAILURE() << "deleting the test's stream " << stream << ": " << error.what();
    }
  }
}

std::string NatsServerTest::entity_name(std::string_view what) const {
  std::string name = std::string(what) + "-" +
                     ::testing::UnitTest::GetInstance()->current_test_info()->name() + "-" +
                     std::to_string(::getpid());
  for (char& c : name) {
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '-')
      c = '-';
  }
  return name;
}

std::string NatsServerTest::url_text(std::string_view user, std::string_view stream,
                                     std::string_view subjects, std::string_view extra) {
  streams_.emplace_back(stream);
  std::string text = "nats://" + std::string(user) + ":" + url_.password + "@" + url_.host + ":" +
                     std::to_string(url_.port) + "?stream=" + std::string(stream);
  if (!subjects.empty())
    text += "&subject=" + std::string(subjects);
  return text + std::string(extra);
}

}  // namespace docket::nats::detail::test
