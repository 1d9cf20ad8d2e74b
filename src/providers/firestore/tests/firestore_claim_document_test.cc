// A claim entry as a Firestore document and back, without a server: every field on
// the document, absent optionals as nullValue, the entry read back equal, and a
// document written before claim ids existed read back without one.
#include "providers/firestore/firestore_claim_document.h"

#include <gtest/gtest.h>

#include "docket/core/error.h"

namespace docket::firestore::detail::claim {
namespace firestore_claim_document_test {

Timestamp at(std::int64_t micros) {
  return Timestamp(std::chrono::microseconds(micros));
}

TEST(FirestoreClaimDocument, AnEntryRoundTripsThroughItsDocumentWithEveryField) {
  ClaimEntry entry(ClaimKey(TenantId("acme_corp"), "orders/42", "H__"));
  entry.status = ClaimStatus::kFailed;
  entry.retry_count = 3;
  entry.received_at = at(1'000'001);
  entry.updated_at = at(2'000'002);
  entry.last_error = "boom";
  entry.next_attempt_at = at(3'000'003);
  const nlohmann::json fields = claim_fields(entry);
  for (std::string_view field :
       {kTenant, kMessageId, kHandlerType, kStatus, kRetryCount, kReceivedAt, kUpdatedAt, kOwner,
        kClaimId, kLeaseUntil, kProcessedAt, kLastError, kNextAttemptAt}) {
    EXPECT_TRUE(fields.contains(field)) << field;
  }
  EXPECT_EQ(fields.at(std::string(kOwner)), nlohmann::json::parse(R"({"nullValue":null})"));
  EXPECT_EQ(fields.at(std::string(kClaimId)), nlohmann::json::parse(R"({"nullValue":null})"));
  EXPECT_EQ(fields.at(std::string(kMessageId)),
            nlohmann::json::parse(R"({"stringValue":"orders/42"})"));
  EXPECT_EQ(fields.at(std::string(kRetryCount)), nlohmann::json::parse(R"({"integerValue":"3"})"));
  const Document document{.name = "n", .id = "inbox:acme_corp:orders%2F42:H__", .fields = fields};
  EXPECT_EQ(claim_entry_of(document, "store"), entry);
}

TEST(FirestoreClaimDocument, AProcessingEntryRoundTripsWithItsToken) {
  ClaimEntry entry(ClaimKey(TenantId("acme"), "m", "H"));
  entry.status = ClaimStatus::kProcessing;
  entry.owner = "w";
  entry.claim_id = "c-1";
  entry.lease_until = at(4'000'004);
  const nlohmann::json fields = claim_fields(entry);
  EXPECT_EQ(fields.at(std::string(kClaimId)), nlohmann::json::parse(R"({"stringValue":"c-1"})"));
  const Document document{.name = "n", .id = "inbox:acme:m:H", .fields = fields};
  EXPECT_EQ(claim_entry_of(document, "store"), entry);
}

// Written before claim ids existed: no claimId field at all, read as none.
TEST(FirestoreClaimDocument, ADocumentWithoutAClaimIdReadsBackWithNone) {
  ClaimEntry entry(ClaimKey(TenantId("acme"), "m", "H"));
  entry.status = ClaimStatus::kProcessing;
  entry.owner = "w";
  entry.lease_until = at(4'000'004);
  nlohmann::json fields = claim_fields(entry);
  fields.erase(std::string(kClaimId));
  const Document document{.name = "n", .id = "inbox:acme:m:H", .fields = fields};
  const ClaimEntry read = claim_entry_of(document, "store");
  EXPECT_EQ(read.claim_id, std::nullopt);
  EXPECT_EQ(read, entry);
}

TEST(FirestoreClaimDocument, AnUnknownStatusIsAnInfrastructureErrorNamingTheStore) {
  ClaimEntry entry(ClaimKey(TenantId("acme"), "m", "H"));
  nlohmann::json fields = claim_fields(entry);
  fields[std::string(kStatus)] = {{"stringValue", "lost"}};
  const Document document{.name = "n", .id = "d", .fields = fields};
  EXPECT_THROW(claim_entry_of(document, "Firestore claim inbox"), InfrastructureError);
}

}  // namespace firestore_claim_document_test
}  // namespace docket::firestore::detail::claim
