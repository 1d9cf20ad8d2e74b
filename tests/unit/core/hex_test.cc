#include "core/hex.h"

#include <gtest/gtest.h>

#include <cctype>
#include <cstddef>
#include <string>
#include <vector>

namespace docket::core {
namespace {

std::string hex_of(const std::vector<std::byte>& bytes, bool upper) {
  const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
  std::string text;
  for (const std::byte b : bytes) {
    text += digits[std::to_integer<int>(b) >> 4];
    text += digits[std::to_integer<int>(b) & 0x0F];
  }
  return text;
}

std::vector<std::byte> every_byte_value() {
  std::vector<std::byte> bytes;
  for (int b = 0; b < 256; ++b) {
    bytes.push_back(static_cast<std::byte>(b));
  }
  return bytes;
}

TEST(HexTest, DecodesEveryByteValueInBothCases) {
  const std::vector<std::byte> bytes = every_byte_value();
  for (const bool upper : {false, true}) {
    std::vector<std::byte> out(bytes.size());
    ASSERT_TRUE(decode_hex(hex_of(bytes, upper), out));
    EXPECT_EQ(out, bytes) << (upper ? "upper case" : "lower case");
  }
}

// Every length from empty to several words, so that whole words and each tail (2, 4
// or 6 digits) are decoded, and nothing past the output is written.
TEST(HexTest, DecodesEveryLengthExactly) {
  const std::vector<std::byte> all = every_byte_value();
  for (std::size_t n = 0; n <= 40; ++n) {
    const std::vector<std::byte> bytes(all.rbegin(), all.rbegin() + static_cast<long>(n));
    std::vector<std::byte> out(n + 8, std::byte{0x5A});
    ASSERT_TRUE(decode_hex(hex_of(bytes, false), std::span(out).first(n))) << n;
    EXPECT_EQ(std::vector<std::byte>(out.begin(), out.begin() + static_cast<long>(n)), bytes) << n;
    EXPECT_EQ(std::vector<std::byte>(out.begin() + static_cast<long>(n), out.end()),
              std::vector<std::byte>(8, std::byte{0x5A}))
        << n;
  }
}

// Every byte value at every position of inputs whose last word is whole and partial:
// accepted exactly when it is a hex digit, and then read as that digit.
TEST(HexTest, ChecksEveryByteAtEveryPosition) {
  const std::string hex_digits = "0123456789abcdefABCDEF";
  for (const std::string_view base : {"0123456789abcdef", "fedcba9876"}) {
    for (std::size_t position = 0; position < base.size(); ++position) {
      for (int c = 0; c < 256; ++c) {
        std::string text(base);
        text[position] = static_cast<char>(c);
        std::vector<std::byte> out(text.size() / 2);
        const bool digit = hex_digits.find(static_cast<char>(c)) != std::string::npos;
        ASSERT_EQ(decode_hex(text, out), digit) << "byte " << c << " at " << position;
        if (digit) {
          std::string lower = text;
          for (char& ch : lower) {
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
          }
          EXPECT_EQ(hex_of(out, false), lower) << "byte " << c << " at " << position;
        }
      }
    }
  }
}

TEST(HexTest, RefusesOddLengthsAndMismatchedOutput) {
  std::vector<std::byte> out(2);
  EXPECT_FALSE(decode_hex("abc", std::span(out).first(1)));
  EXPECT_FALSE(decode_hex("abcd", std::span(out).first(1)));
  EXPECT_FALSE(decode_hex("ab", out));
  EXPECT_TRUE(decode_hex("", std::span<std::byte>()));
}

}  // namespace
}  // namespace docket::core
