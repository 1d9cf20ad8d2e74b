#include "docket/keys/inbox_key.h"

#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::keys {
namespace {

constexpr std::string_view kHandler = "MyApp.Handlers.OrderHandler";

// The .NET assembly-qualified name of Dictionary<string, List<string>>, from the
// inbox document id specification's worked example.
constexpr std::string_view kNestedGenericHandler =
    "System.Collections.Generic.Dictionary`2[[System.String, System.Private.CoreLib, "
    "Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e],[System.Collections."
    "Generic.List`1[[System.String, System.Private.CoreLib, Version=10.0.0.0, Culture=neutral, "
    "PublicKeyToken=7cec85d7bea7798e]], System.Private.CoreLib, Version=10.0.0.0, "
    "Culture=neutral, PublicKeyToken=7cec85d7bea7798e]], System.Private.CoreLib, "
    "Version=10.0.0.0, Culture=neutral, PublicKeyToken=7cec85d7bea7798e";

constexpr std::string_view kGuidTenant = "3f2504e0-4f89-41d3-9a0c-0305e82c3301";
constexpr std::string_view kGuidMessage = "9b2c1f4e-7a65-4e0b-8f2d-6c1a0b9e4d72";

InboxEntryTerms terms(std::string_view tenant, std::string_view message, std::string_view handler) {
  return {std::string(tenant), std::string(message), std::string(handler)};
}

TEST(InboxEntryId, FirestoreReferenceVector) {
  const Key key = compose_inbox_entry_id(Provider::kFirestore, terms("acme", "corp_42", kHandler));
  EXPECT_EQ(key.value, "inbox:acme:corp_42:MyApp.Handlers.OrderHandler");
  EXPECT_EQ(key.field, "document id");
  EXPECT_EQ(key.limit_bytes, 1500u);
}

TEST(InboxEntryId, ElasticsearchReferenceVector) {
  const Key key =
      compose_inbox_entry_id(Provider::kElasticsearch, terms("acme_corp", "42", kHandler));
  EXPECT_EQ(key.value, "acme_corp:42:MyApp.Handlers.OrderHandler");
  EXPECT_EQ(key.field, "_id");
  EXPECT_EQ(key.limit_bytes, 512u);
}

TEST(InboxEntryId, OldAmbiguousPairIsNowDistinctOnEveryProvider) {
  for (Provider provider : kAllProviders) {
    const Key a = compose_inbox_entry_id(provider, terms("acme", "corp_42", kHandler));
    const Key b = compose_inbox_entry_id(provider, terms("acme_corp", "42", kHandler));
    EXPECT_NE(a.value, b.value) << provider_name(provider);
  }
}

TEST(InboxEntryId, PlainTermsGiveTheDocumentedShapeOnEveryProvider) {
  const InboxEntryTerms plain = terms("__untenanted__", "msg-1.a~b", kHandler);
  const std::string joined = "__untenanted__:msg-1.a~b:MyApp.Handlers.OrderHandler";
  EXPECT_EQ(compose_inbox_entry_id(Provider::kFirestore, plain).value, "inbox:" + joined);
  EXPECT_EQ(compose_inbox_entry_id(Provider::kElasticsearch, plain).value, joined);
  EXPECT_EQ(compose_inbox_entry_id(Provider::kCosmosDb, plain).value, joined);
  EXPECT_EQ(compose_inbox_entry_id(Provider::kMongoDb, plain).value, joined);
  EXPECT_EQ(compose_inbox_entry_id(Provider::kRedis, plain).value, "inbox:" + joined);
  EXPECT_EQ(compose_inbox_entry_id(Provider::kDynamoDb, plain).value, joined);
}

TEST(InboxEntryId, EachProviderEscapesItsOwnSet) {
  const InboxEntryTerms awkward = terms("a:b", "50%/x y?#\\", "H\xC3\xA9");
  EXPECT_EQ(compose_inbox_entry_id(Provider::kFirestore, awkward).value,
            "inbox:a%3Ab:50%25%2Fx%20y%3F%23%5C:H%C3%A9");
  EXPECT_EQ(compose_inbox_entry_id(Provider::kElasticsearch, awkward).value,
            "a%3Ab:50%25%2Fx%20y%3F%23%5C:H%C3%A9");
  EXPECT_EQ(compose_inbox_entry_id(Provider::kCosmosDb, awkward).value,
            "a%3Ab:50%25%2Fx%20y%3F%23%5C:H\xC3\xA9");
  EXPECT_EQ(compose_inbox_entry_id(Provider::kMongoDb, awkward).value,
            "a%3Ab:50%25/x y?#\\:H\xC3\xA9");
  EXPECT_EQ(compose_inbox_entry_id(Provider::kRedis, awkward).value,
            "inbox:a%3Ab:50%25/x y?#\\:H\xC3\xA9");
  EXPECT_EQ(compose_inbox_entry_id(Provider::kDynamoDb, awkward).value,
            "a%3Ab:50%25/x y?#\\:H\xC3\xA9");
}

TEST(InboxEntryId, CosmosEscapesControlCharacters) {
  const Key key =
      compose_inbox_entry_id(Provider::kCosmosDb, terms("t", std::string("a\tb\x7F\0", 5), "h "));
  EXPECT_EQ(key.value, "t:a%09b%7F%00:h%20");
}

TEST(InboxEntryId, NestedGenericHandlerIsRefusedOnElasticsearchAndFitsOnFirestore) {
  ASSERT_EQ(kNestedGenericHandler.size(), 477u);
  ASSERT_EQ(kGuidTenant.size(), 36u);
  ASSERT_EQ(kGuidMessage.size(), 36u);
  const InboxEntryTerms big = terms(kGuidTenant, kGuidMessage, kNestedGenericHandler);

  try {
    compose_inbox_entry_id(Provider::kElasticsearch, big);
    FAIL() << "a 665-byte _id must be refused";
  } catch (const KeyTooLongError& error) {
    EXPECT_EQ(error.provider(), "Elasticsearch");
    EXPECT_EQ(error.limit_bytes(), 512u);
    EXPECT_EQ(error.actual_bytes(), 665u);
    const std::string message = error.what();
    EXPECT_NE(message.find("Elasticsearch"), std::string::npos) << message;
    EXPECT_NE(message.find("_id"), std::string::npos) << message;
    EXPECT_NE(message.find("512"), std::string::npos) << message;
    EXPECT_NE(message.find("665"), std::string::npos) << message;
    EXPECT_NE(message.find("tenant 36, message id 36, handler type 591"), std::string::npos)
        << message;
    EXPECT_NE(message.find("Shorten the handler type"), std::string::npos) << message;
    EXPECT_NE(message.find("never truncates"), std::string::npos) << message;
  }

  const Key firestore = compose_inbox_entry_id(Provider::kFirestore, big);
  EXPECT_EQ(firestore.size_bytes(), 665u + 6u);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kFirestore, firestore.value), big);
}

TEST(InboxEntryId, KeyAtTheLimitFitsAndOneByteMoreDoesNot) {
  // "a:b:" is 4 bytes; the handler fills the rest of Elasticsearch's 512.
  const std::string handler(508, 'h');
  EXPECT_EQ(compose_inbox_entry_id(Provider::kElasticsearch, terms("a", "b", handler)).size_bytes(),
            512u);
  EXPECT_THROW(compose_inbox_entry_id(Provider::kElasticsearch, terms("a", "b", handler + "h")),
               KeyTooLongError);
}

TEST(InboxEntryId, EmptyTermIsRefusedNamingIt) {
  try {
    compose_inbox_entry_id(Provider::kMongoDb, terms("acme", "", kHandler));
    FAIL() << "an empty message id must be refused";
  } catch (const InvalidKeyTermError& error) {
    EXPECT_EQ(error.term(), "message id");
    EXPECT_NE(std::string(error.what()).find("message id is empty"), std::string::npos)
        << error.what();
  }
}

struct Utf8Case {
  const char* name;
  std::string bytes;
  const char* reason;
};

TEST(InboxEntryId, MalformedUtf8IsRefusedNamingTheTermAndTheDefect) {
  const Utf8Case cases[] = {
      {"encoded surrogate", "ab\xED\xA0\x80", "surrogate"},
      {"truncated", "ab\xE4\xB8", "truncated"},
      {"overlong", "ab\xC0\xAF", "overlong"},
      {"beyond U+10FFFF", "ab\xF4\x90\x80\x80", "beyond U+10FFFF"},
  };
  for (Provider provider : kAllProviders) {
    for (const Utf8Case& c : cases) {
      try {
        compose_inbox_entry_id(provider, terms("acme", c.bytes, kHandler));
        ADD_FAILURE() << c.name << " must be refused on " << provider_name(provider);
      } catch (const InvalidKeyTermError& error) {
        const std::string message = error.what();
        EXPECT_EQ(error.term(), "message id");
        EXPECT_NE(message.find("message id is not valid UTF-8"), std::string::npos) << message;
        EXPECT_NE(message.find(c.reason), std::string::npos) << message;
        EXPECT_NE(message.find(provider_display_name(provider)), std::string::npos) << message;
      }
    }
  }
  try {
    compose_inbox_entry_id(Provider::kFirestore, terms("\xED\xA0\x80", "m", "h"));
    FAIL();
  } catch (const InvalidKeyTermError& error) {
    EXPECT_EQ(error.term(), "tenant");
  }
  try {
    compose_inbox_entry_id(Provider::kFirestore, terms("t", "m", "h\xFF"));
    FAIL();
  } catch (const InvalidKeyTermError& error) {
    EXPECT_EQ(error.term(), "handler type");
  }
}

TEST(InboxEntryId, ParseInvertsCompose) {
  const InboxEntryTerms awkward = terms("a:b_c", "50%/x y?#\\", "H\xC3\xA9:");
  for (Provider provider : kAllProviders) {
    const Key key = compose_inbox_entry_id(provider, awkward);
    EXPECT_EQ(parse_inbox_entry_id(provider, key.value), awkward) << provider_name(provider);
  }
}

TEST(InboxEntryId, ParseAcceptsOnlyCanonicalIds) {
  EXPECT_EQ(parse_inbox_entry_id(Provider::kFirestore, "acme:42:H"), std::nullopt);  // no prefix
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "inbox:acme:42:H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "acme:42"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "acme::H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "ac%6De:42:H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "a c:42:H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "a%2:42:H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "a%ED%A0%80:42:H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kCosmosDb, "a/b:42:H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kMongoDb, "a%2Fb:42:H"), std::nullopt);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kMongoDb, "a/b:42:H"), terms("a/b", "42", "H"));
  EXPECT_EQ(parse_inbox_entry_id(Provider::kElasticsearch, "acme_corp_42_H"), std::nullopt);
}

TEST(LegacyInboxTenant, RecoversTheTenantBySuffix) {
  const std::string old_id = "acme_corp_42_MyApp.Handlers.OrderHandler";
  EXPECT_EQ(recover_legacy_inbox_tenant(old_id, "42", kHandler), "acme_corp");
  EXPECT_EQ(recover_legacy_inbox_tenant(old_id, "corp_42", kHandler), "acme");
  EXPECT_EQ(
      recover_legacy_inbox_tenant("__untenanted___m-1_" + std::string(kHandler), "m-1", kHandler),
      "__untenanted__");
}

TEST(LegacyInboxTenant, NewShapeOrForeignIdsAreNotRecovered) {
  for (Provider provider : {Provider::kFirestore, Provider::kElasticsearch}) {
    const Key current = compose_inbox_entry_id(provider, terms("acme_corp", "42", kHandler));
    EXPECT_EQ(recover_legacy_inbox_tenant(current.value, "42", kHandler), std::nullopt);
  }
  EXPECT_EQ(recover_legacy_inbox_tenant("acme_corp_43_H", "42", "H"), std::nullopt);
  EXPECT_EQ(recover_legacy_inbox_tenant("_42_H", "42", "H"), std::nullopt);  // nothing before
}

}  // namespace
}  // namespace docket::keys
