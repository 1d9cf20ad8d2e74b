// Base64 as the document stores' JSON carries binary values: the RFC 4648 vectors,
// every byte, and refusals of what is not padded base64.
#include "providers/kit/base64.h"

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <utility>

namespace docket::kit {
namespace {

TEST(KitBase64, EncodesTheRfcVectorsAndDecodesThemBack) {
  const std::pair<std::string_view, std::string_view> vectors[] = {{"", ""},
                                                                   {"f", "Zg=="},
                                                                   {"fo", "Zm8="},
                                                                   {"foo", "Zm9v"},
                                                                   {"foob", "Zm9vYg=="},
                                                                   {"fooba", "Zm9vYmE="},
                                                                   {"foobar", "Zm9vYmFy"}};
  for (const auto& [bytes, text] : vectors) {
    EXPECT_EQ(base64_encode(bytes), text);
    EXPECT_EQ(base64_decode(text), std::string(bytes));
  }
  std::string every;
  for (int b = 0; b < 256; ++b) {
    every += static_cast<char>(b);
  }
  EXPECT_EQ(base64_decode(base64_encode(every)), every);
}

TEST(KitBase64, RefusesWhatIsNotPaddedBase64) {
  EXPECT_EQ(base64_decode("Zm9"), std::nullopt);       // not a multiple of 4
  EXPECT_EQ(base64_decode("Zm9*"), std::nullopt);      // outside the alphabet
  EXPECT_EQ(base64_decode("Zg==Zg=="), std::nullopt);  // padding before the end
  EXPECT_EQ(base64_decode("Z==="), std::nullopt);
}

}  // namespace
}  // namespace docket::kit
