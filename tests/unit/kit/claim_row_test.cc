// kit::claim_entry: a stored claim inbox row becomes the entry docket wrote, and a row
// docket could not have written is refused naming the store, the value and the fix.
#include "providers/kit/claim_row.h"

#include <gtest/gtest.h>

#include <string>

#include "docket/core/error.h"
#include "providers/kit/time_codec.h"

namespace docket::kit {
namespace {

StoredClaimEntry processing_row() {
  return {.tenant = "acme",
          .message_id = "m-1",
          .handler_type = "billing.Invoice",
          .status = "processing",
          .retry_count = 2,
          .received_at = 1'000,
          .updated_at = 2'000,
          .owner = "worker-1",
          .lease_until = 3'000,
          .last_error = "timeout",
          .next_attempt_at = 4'000};
}

// The message of the InfrastructureError `decode` throws; empty when it throws none.
template <class Decode>
std::string refusal(Decode decode) {
  try {
    decode();
  } catch (const InfrastructureError& e) {
    return e.what();
  }
  return {};
}

TEST(ClaimRowTest, EveryColumnBecomesTheEntrysValue) {
  const ClaimEntry entry = claim_entry(processing_row(), "Test claim inbox");
  EXPECT_EQ(entry.key, ClaimKey(TenantId("acme"), "m-1", "billing.Invoice"));
  EXPECT_EQ(entry.status, ClaimStatus::kProcessing);
  EXPECT_EQ(entry.retry_count, 2u);
  EXPECT_EQ(entry.received_at, from_micros(1'000));
  EXPECT_EQ(entry.updated_at, from_micros(2'000));
  EXPECT_EQ(entry.owner, "worker-1");
  EXPECT_EQ(entry.lease_until, from_micros(3'000));
  EXPECT_EQ(entry.processed_at, std::nullopt);
  EXPECT_EQ(entry.last_error, "timeout");
  EXPECT_EQ(entry.next_attempt_at, from_micros(4'000));
}

TEST(ClaimRowTest, AnUnknownStatusIsRefusedNamingStoreAndValue) {
  StoredClaimEntry row = processing_row();
  row.status = "Processed";
  const std::string message = refusal([&] { claim_entry(row, "Test claim inbox"); });
  EXPECT_NE(message.find("Test claim inbox: docket_claim_inbox holds an unknown status "
                         "(\"Processed\")"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("fix or delete it"), std::string::npos) << message;
}

TEST(ClaimRowTest, ARetryCountOutsideItsRangeIsRefused) {
  EXPECT_NE(refusal([] { claim_retry_count(-1, "Test claim inbox"); }).find("-1"),
            std::string::npos);
  EXPECT_NE(refusal([] {
              claim_retry_count(std::int64_t{1} << 32, "Test claim inbox");
            }).find("a retry count out of range (4294967296)"),
            std::string::npos);
  EXPECT_EQ(claim_retry_count(std::int64_t{0xFFFF'FFFF}, "Test claim inbox"), 0xFFFF'FFFFu);
}

TEST(ClaimRowTest, AKeyDocketDoesNotAcceptIsRefusedNamingItsTerms) {
  StoredClaimEntry row = processing_row();
  row.handler_type = "  ";
  const std::string message = refusal([&] { claim_entry(row, "Test claim inbox"); });
  EXPECT_NE(message.find("a key docket does not accept (tenant \"acme\", message id \"m-1\", "
                         "handler type \"  \""),
            std::string::npos)
      << message;
}

}  // namespace
}  // namespace docket::kit
