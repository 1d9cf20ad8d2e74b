#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_options.h"

namespace docket {
namespace {

std::string repeat(std::string_view piece, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) {
    out += piece;
  }
  return out;
}

TEST(InboxOptions, ConsumerIdOf256CharactersIsAcceptedAnd257Refused) {
  EXPECT_EQ(InboxOptions(std::string(256, 'c')).consumer_id(), std::string(256, 'c'));
  try {
    InboxOptions options(std::string(257, 'c'));
    FAIL() << "257 characters must be refused";
  } catch (const ConfigurationError& e) {
    EXPECT_NE(std::string(e.what()).find("257 characters"), std::string::npos) << e.what();
  }
}

TEST(InboxOptions, LimitCountsCharactersNotBytes) {
  EXPECT_NO_THROW(InboxOptions(repeat("\xC3\xA9", 256)));  // 256 x U+00E9, 512 bytes
  EXPECT_THROW(InboxOptions(repeat("\xC3\xA9", 257)), ConfigurationError);
}

TEST(InboxOptions, BlankOrInvalidConsumerIdIsAConfigurationError) {
  EXPECT_THROW(InboxOptions(""), ConfigurationError);
  EXPECT_THROW(InboxOptions(" \t "), ConfigurationError);
  EXPECT_THROW(InboxOptions("bad\xC3("), ConfigurationError);
  EXPECT_FALSE(consumer_id_problem("orders-service").has_value());
}

TEST(Envelope, MessageIdRules) {
  Envelope envelope{.message_id = "m-1", .event_type = "ping"};
  EXPECT_NO_THROW(validate_envelope(envelope));
  envelope.message_id = std::string(kMaxMessageIdBytes, 'x');
  EXPECT_NO_THROW(validate_envelope(envelope));
  envelope.message_id += "x";
  try {
    validate_envelope(envelope);
    FAIL() << "a 257-byte message id must be refused";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("257 bytes"), std::string::npos) << e.what();
  }
  envelope.message_id = "";
  EXPECT_THROW(validate_envelope(envelope), InvalidInputError);
  envelope.message_id = "\xED\xA0\x80";  // an encoded surrogate
  EXPECT_THROW(validate_envelope(envelope), InvalidInputError);
}

TEST(Envelope, EventTypeAndLineageMustBeText) {
  Envelope envelope{.message_id = "m-1", .event_type = ""};
  EXPECT_THROW(validate_envelope(envelope), InvalidInputError);
  envelope.event_type = "ping";
  envelope.correlation_id = "\xFF";
  EXPECT_THROW(validate_envelope(envelope), InvalidInputError);
  envelope.correlation_id = "order-1";
  envelope.traceparent = "\xFF garbage is never an error";
  EXPECT_NO_THROW(validate_envelope(envelope));
}

}  // namespace
}  // namespace docket
