// Firestore's value JSON, exactly: integers as decimal text, bytes as base64,
// timestamps as RFC 3339 with microseconds, strings, maps, null and booleans, and a
// document docket did not write read back as an InfrastructureError naming the field.
#include "providers/firestore/firestore_value.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <limits>

#include "docket/core/error.h"
#include "providers/firestore/firestore_timestamp.h"

namespace docket::firestore::detail {
namespace firestore_value_test {

using nlohmann::json;
using ::testing::AllOf;
using ::testing::HasSubstr;

Timestamp at(std::int64_t micros) {
  return Timestamp(std::chrono::microseconds(micros));
}

TEST(FirestoreValue, WritesEachTypeAsTheRestApiSpellsIt) {
  EXPECT_EQ(string_value("a/b"), json::parse(R"({"stringValue":"a/b"})"));
  EXPECT_EQ(integer_value(std::numeric_limits<std::int64_t>::min()),
            json::parse(R"({"integerValue":"-9223372036854775808"})"));
  EXPECT_EQ(integer_value(42), json::parse(R"({"integerValue":"42"})"));
  EXPECT_EQ(bytes_value(std::string("\0\1", 2)), json::parse(R"({"bytesValue":"AAE="})"));
  EXPECT_EQ(timestamp_value(at(1'796'320'072'530'836)),
            json::parse(R"({"timestampValue":"2026-12-03T17:47:52.530836Z"})"));
  EXPECT_EQ(timestamp_value(at(0)),
            json::parse(R"({"timestampValue":"1970-01-01T00:00:00.000000Z"})"));
  EXPECT_EQ(boolean_value(true), json::parse(R"({"booleanValue":true})"));
  EXPECT_EQ(null_value(), json::parse(R"({"nullValue":null})"));
  EXPECT_EQ(map_value({{"n", integer_value(1)}}),
            json::parse(R"({"mapValue":{"fields":{"n":{"integerValue":"1"}}}})"));
}

TEST(FirestoreValue, ReadsBackWhatItWroteExactly) {
  const std::string every_byte = [] {
    std::string bytes;
    for (int b = 0; b < 256; ++b) {
      bytes += static_cast<char>(b);
    }
    return bytes;
  }();
  const json fields = {{"s", string_value("héllo")},
                       {"i", integer_value(std::numeric_limits<std::int64_t>::max())},
                       {"b", bytes_value(every_byte)},
                       {"t", timestamp_value(at(-1))},
                       {"f", boolean_value(false)},
                       {"z", null_value()},
                       {"m", map_value({{"k", string_value("v")}})}};
  const FieldReader reader(fields, "doc");
  EXPECT_EQ(reader.string("s"), "héllo");
  EXPECT_EQ(reader.integer("i"), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(reader.bytes("b"), every_byte);
  EXPECT_EQ(reader.timestamp("t"), at(-1));
  EXPECT_FALSE(reader.boolean("f"));
  EXPECT_EQ(reader.optional_string("z"), std::nullopt);
  EXPECT_EQ(reader.optional_timestamp("absent"), std::nullopt);
  EXPECT_EQ(reader.map("m").string("k"), "v");
}

TEST(FirestoreValue, ParsesRfc3339AsFirestoreWritesIt) {
  EXPECT_EQ(parse_rfc3339("2026-12-03T17:47:52.530836Z"), at(1'796'320'072'530'836));
  EXPECT_EQ(parse_rfc3339("2026-12-03T17:47:52Z"), at(1'796'320'072'000'000));
  EXPECT_EQ(parse_rfc3339("2026-12-03T17:47:52.5Z"), at(1'796'320'072'500'000));
  EXPECT_EQ(parse_rfc3339("2026-12-03T17:47:52.530836999Z"), at(1'796'320'072'530'836));
  EXPECT_EQ(parse_rfc3339("2026-12-03T18:47:52+01:00"), at(1'796'320'072'000'000));
  EXPECT_EQ(parse_rfc3339("1969-12-31T23:59:59.999999Z"), at(-1));
  EXPECT_EQ(parse_rfc3339("2026-02-30T00:00:00Z"), std::nullopt);
  EXPECT_EQ(parse_rfc3339("2026-12-03 17:47:52Z"), std::nullopt);
  EXPECT_EQ(parse_rfc3339("2026-12-03T17:47:52.Z"), std::nullopt);
  EXPECT_EQ(parse_rfc3339("2026-12-03T17:47:52"), std::nullopt);
}

TEST(FirestoreValue, AnInstantFirestoreCannotHoldIsRefused) {
  EXPECT_THROW(timestamp_value(at(std::numeric_limits<std::int64_t>::min())), InvalidInputError);
}

TEST(FirestoreValue, AFieldDocketDidNotWriteIsAnInfrastructureErrorNamingIt) {
  const json fields = {{"n", string_value("7")},
                       {"i", json{{"integerValue", "12x"}}},
                       {"t", json{{"timestampValue", "yesterday"}}}};
  const FieldReader reader(fields, "Firestore claim inbox, document 'd'");
  EXPECT_THAT([&] { reader.integer("n"); },
              ::testing::ThrowsMessage<InfrastructureError>(AllOf(
                  HasSubstr("document 'd'"), HasSubstr("field 'n'"), HasSubstr("integerValue"))));
  EXPECT_THROW(reader.integer("i"), InfrastructureError);
  EXPECT_THROW(reader.timestamp("t"), InfrastructureError);
  EXPECT_THAT([&] { reader.string("absent"); },
              ::testing::ThrowsMessage<InfrastructureError>(HasSubstr("'absent' is missing")));
}

}  // namespace firestore_value_test
}  // namespace docket::firestore::detail
