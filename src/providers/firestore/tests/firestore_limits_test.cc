// Firestore's limits, refused before sending: document ids (length, '/', reserved
// forms) and the 1 MiB document size as Firestore counts it.
#include "providers/firestore/firestore_limits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "docket/core/error.h"
#include "providers/firestore/firestore_value.h"

namespace docket::firestore::detail {
namespace firestore_limits_test {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

TEST(FirestoreLimits, ADocumentIdOf1500BytesFitsAndOneMoreIsRefusedNamingBoth) {
  EXPECT_NO_THROW(check_document_id("c", std::string(1500, 'a')));
  EXPECT_THAT([] { check_document_id("app_inbox", std::string(1501, 'a')); },
              ThrowsMessage<InvalidInputError>(AllOf(HasSubstr("collection 'app_inbox'"),
                                                     HasSubstr("1501 bytes"), HasSubstr("1500"),
                                                     HasSubstr("nothing was written"))));
}

TEST(FirestoreLimits, IdsFirestoreReadsOtherwiseAreRefused) {
  EXPECT_THAT([] { check_document_id("c", "a/b"); },
              ThrowsMessage<InvalidInputError>(HasSubstr("path separator")));
  EXPECT_THAT([] { check_document_id("c", "__untenanted__"); },
              ThrowsMessage<InvalidInputError>(HasSubstr("reserves")));
  EXPECT_THROW(check_document_id("c", ""), InvalidInputError);
  EXPECT_THROW(check_document_id("c", ".."), InvalidInputError);
  EXPECT_THROW(check_document_id("c", "\xC3"), InvalidInputError);
  EXPECT_NO_THROW(check_document_id("c", "inbox:__untenanted__:m:H__"));
  EXPECT_NO_THROW(check_document_id("c", "__x"));
}

TEST(FirestoreLimits, CountsTheDocumentAsFirestoreDoes) {
  // name: "c" + 1 + "d" + 1 + 16 = 20; fields: "s"+1 + "ab"+1 = 5, "i"+1 + 8 = 10,
  // "b"+1 + 2 bytes = 4, "m"+1 + ("t"+1 + 1) = 5; plus 32.
  const nlohmann::json fields = {{"s", string_value("ab")},
                                 {"i", integer_value(7)},
                                 {"b", bytes_value("xy")},
                                 {"m", map_value({{"t", boolean_value(true)}})}};
  EXPECT_EQ(document_size("c", "d", fields), 20u + 5u + 10u + 4u + 5u + 32u);
}

TEST(FirestoreLimits, ADocumentOver1MiBIsRefusedNamingTheSizeAndTheLimit) {
  const std::size_t overhead = document_size("c", "d", {{"p", bytes_value("")}});
  EXPECT_NO_THROW(check_document(
      "c", "d", {{"p", bytes_value(std::string(kMaxDocumentBytes - overhead, 'x'))}}));
  EXPECT_THAT(
      [&] {
        check_document("c", "d",
                       {{"p", bytes_value(std::string(kMaxDocumentBytes - overhead + 1, 'x'))}});
      },
      ThrowsMessage<InvalidInputError>(AllOf(HasSubstr("document 'd' of collection 'c'"),
                                             HasSubstr("1048577 bytes"), HasSubstr("1048576"))));
}

}  // namespace firestore_limits_test
}  // namespace docket::firestore::detail
