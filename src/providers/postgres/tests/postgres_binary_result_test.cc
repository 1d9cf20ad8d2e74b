// Results in binary format (exec_prepared_binary) read through Result's typed getters:
// integers at their extremes, bytea of every byte value and length, text, booleans and
// NULLs come back as in text format; a getter asked for another type refuses.
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "docket/core/error.h"
#include "providers/postgres/tests/postgres_fixture.h"

namespace docket::postgres::detail {
namespace {

using ::testing::HasSubstr;

class PostgresBinaryResultTest : public PostgresTest {
 protected:
  Connection conn_{url_};
};

std::vector<std::byte> bytes_of(const std::string& text) {
  const auto* first = reinterpret_cast<const std::byte*>(text.data());
  return std::vector<std::byte>(first, first + text.size());
}

// Deterministic bytes of every value (a linear congruential sequence).
std::string pseudo_random_bytes(std::size_t size) {
  std::string bytes(size, '\0');
  std::uint32_t state = 2463534242u;
  for (char& c : bytes) {
    state = state * 1664525u + 1013904223u;
    c = static_cast<char>(state >> 24);
  }
  return bytes;
}

TEST_F(PostgresBinaryResultTest, Int8Int4AndInt2ComeBackAtTheirExtremes) {
  using L8 = std::numeric_limits<std::int64_t>;
  using L4 = std::numeric_limits<std::int32_t>;
  using L2 = std::numeric_limits<std::int16_t>;
  const std::vector<std::int64_t> int8s{L8::min(), L8::min() + 1, -4294967296, -256,     -1, 0, 1,
                                        255,       256,           4294967296,  L8::max()};
  for (const std::int64_t v : int8s) {
    const Result r = exec_prepared_binary(conn_, "bin_int8", "SELECT $1::int8, $1::text", v);
    EXPECT_EQ(r.int64(0, 0), v);
    EXPECT_EQ(r.text(0, 1), std::to_string(v));
  }
  for (const std::int64_t v : {std::int64_t{L4::min()}, std::int64_t{-1}, std::int64_t{0},
                               std::int64_t{65536}, std::int64_t{L4::max()}}) {
    EXPECT_EQ(exec_prepared_binary(conn_, "bin_int4", "SELECT $1::int4", v).int64(0, 0), v);
  }
  for (const std::int64_t v : {std::int64_t{L2::min()}, std::int64_t{-1}, std::int64_t{0},
                               std::int64_t{255}, std::int64_t{L2::max()}}) {
    EXPECT_EQ(exec_prepared_binary(conn_, "bin_int2", "SELECT $1::int2", v).int64(0, 0), v);
  }
}

TEST_F(PostgresBinaryResultTest, ByteaComesBackByteForByteInBothFormats) {
  std::string every_byte;
  for (int b = 0; b < 256; ++b) {
    every_byte += static_cast<char>(b);
  }
  std::vector<std::string> payloads{every_byte, std::string(), std::string(1, '\0'),
                                    std::string(1000, '\0'), pseudo_random_bytes(4 << 20)};
  for (std::size_t n = 1; n <= 17; ++n) {  // every remainder of an eight-digit word
    payloads.push_back(pseudo_random_bytes(n));
  }
  for (const std::string& payload : payloads) {
    const std::vector<std::byte> bytes = bytes_of(payload);
    const Result binary = exec_prepared_binary(conn_, "bin_bytea", "SELECT $1::bytea", bytes);
    EXPECT_EQ(binary.bytea_string(0, 0), payload) << payload.size() << " bytes";
    EXPECT_EQ(binary.bytea(0, 0), bytes) << payload.size() << " bytes";
    // Text format: the hex output, decoded eight digits at a time.
    const Result text = exec_prepared(conn_, "text_bytea", "SELECT $1::bytea", bytes);
    EXPECT_EQ(text.bytea_string(0, 0), payload) << payload.size() << " bytes";
    EXPECT_EQ(text.bytea(0, 0), bytes) << payload.size() << " bytes";
  }
}

TEST_F(PostgresBinaryResultTest, TextTypesBooleansAndNullsComeBackAsInTextFormat) {
  const std::string utf8 = "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80";
  const Result r = exec_prepared_binary(
      conn_, "bin_mixed",
      "SELECT $1::text, $1::varchar, $1::char(20), 'docket'::name, ''::text, NULL::text, "
      "NULL::int8, true, false, '017f22e2-79b0-7cc3-98c4-dc0c0c07398f'::uuid::text",
      utf8);
  EXPECT_EQ(r.text(0, 0), utf8);
  EXPECT_EQ(r.text(0, 1), utf8);
  EXPECT_EQ(r.text(0, 2).substr(0, utf8.size()), utf8);  // char(n) pads with blanks
  EXPECT_EQ(r.text(0, 3), "docket");
  // An empty value is not NULL, and NULL is NULL, in binary format too.
  EXPECT_EQ(r.optional_text(0, 4), std::optional<std::string_view>(""));
  EXPECT_FALSE(r.is_null(0, 4));
  EXPECT_EQ(r.optional_text(0, 5), std::nullopt);
  EXPECT_TRUE(r.is_null(0, 5));
  EXPECT_EQ(r.optional_int64(0, 6), std::nullopt);
  EXPECT_THROW(r.int64(0, 6), InvalidInputError);
  EXPECT_TRUE(r.boolean(0, 7));
  EXPECT_FALSE(r.boolean(0, 8));
  EXPECT_EQ(r.text(0, 9), "017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
}

TEST_F(PostgresBinaryResultTest, GettersRefuseBinaryValuesOfAnotherType) {
  const Result r = exec_prepared_binary(
      conn_, "bin_types", "SELECT 1.5::float8, 7::int8, '\\x00'::bytea, 'a'::text, true");
  EXPECT_THAT([&] { r.int64(0, 0); },
              ::testing::ThrowsMessage<InvalidInputError>(HasSubstr("type oid 701")));
  EXPECT_THROW(r.text(0, 1), InvalidInputError);
  EXPECT_THROW(r.text(0, 2), InvalidInputError);
  EXPECT_THROW(r.bytea(0, 3), InvalidInputError);
  EXPECT_THROW(r.boolean(0, 1), InvalidInputError);
  EXPECT_THROW(r.int64(0, 4), InvalidInputError);
  EXPECT_THROW(r.int64(1, 1), InvalidInputError);  // no such row
  EXPECT_THROW(r.int64(0, 5), InvalidInputError);  // no such column
}

TEST_F(PostgresBinaryResultTest, ManyRowsReadInBinaryMatchTextFormat) {
  const char* sql =
      "SELECT g::int8, g::text, decode(lpad(to_hex(g), 8, '0'), 'hex') "
      "FROM generate_series($1::int8, $1::int8 + 999) AS g";
  const std::int64_t first = std::numeric_limits<std::int64_t>::max() - 999;
  const Result binary = exec_prepared_binary(conn_, "bin_rows", sql, first);
  const Result text = exec_prepared(conn_, "text_rows", sql, first);
  ASSERT_EQ(binary.rows(), 1000);
  ASSERT_EQ(text.rows(), 1000);
  for (int row = 0; row < binary.rows(); ++row) {
    EXPECT_EQ(binary.int64(row, 0), first + row);
    EXPECT_EQ(binary.int64(row, 0), text.int64(row, 0));
    EXPECT_EQ(binary.text(row, 1), text.text(row, 1));
    EXPECT_EQ(binary.bytea(row, 2), text.bytea(row, 2));
  }
}

}  // namespace
}  // namespace docket::postgres::detail
