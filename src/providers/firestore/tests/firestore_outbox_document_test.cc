// The inbox's dedup documents and the outbox's documents, without a server: the dedup id
// of src/keys and every field on the dedup document (messageId and handlerType among
// them); an outbox row round-trips through its document with every field, and a
// document docket did not write is an InfrastructureError naming the store.
#include "providers/firestore/firestore_outbox_document.h"

#include <gtest/gtest.h>

#include "docket/core/error.h"
#include "providers/firestore/firestore_inbox_document.h"

namespace docket::firestore::detail {
namespace firestore_outbox_document_test {

Timestamp at(std::int64_t micros) {
  return Timestamp(std::chrono::microseconds(micros));
}

TEST(FirestoreInboxDocument, TheDedupIdIsSrcKeysAndEveryFieldIsWritten) {
  const InboxRecord record{.key = {"acme_corp", "Billing__", "orders/42"},
                           .event_type = "order-placed",
                           .occurred_at = at(1'000'001),
                           .source = std::nullopt,
                           .causation_id = "c-1",
                           .correlation_id = std::nullopt};
  EXPECT_EQ(inbox::dedup_id("docket_inbox_messages", record.key),
            "inbox:acme_corp:orders%2F42:Billing__");
  const nlohmann::json fields = inbox::dedup_fields(record, at(2'000'002));
  for (std::string_view field : {inbox::kTenant, inbox::kMessageId, inbox::kHandlerType,
                                 inbox::kEventType, inbox::kOccurredAt, inbox::kProcessedAt,
                                 inbox::kSource, inbox::kCausationId, inbox::kCorrelationId}) {
    EXPECT_TRUE(fields.contains(field)) << field;
  }
  EXPECT_EQ(fields.at("messageId"), nlohmann::json::parse(R"({"stringValue":"orders/42"})"));
  EXPECT_EQ(fields.at("handlerType"), nlohmann::json::parse(R"({"stringValue":"Billing__"})"));
  EXPECT_EQ(fields.at("source"), nlohmann::json::parse(R"({"nullValue":null})"));
}

TEST(FirestoreOutboxDocument, ARowRoundTripsThroughItsDocumentWithEveryField) {
  kit::OutboxRow row;
  OutboxRecord& r = row.record;
  r.sequence = 42;
  r.id = "01890a5d-ac96-774b-bcce-b302099a8057";
  r.tenant = "acme";
  r.event_type = "order-placed";
  r.payload = std::string("\x00\xff{}", 4);
  r.occurred_at = at(1'000'001);
  r.created_at = at(2'000'002);
  r.correlation_id = "conv-7";
  r.traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
  r.status = OutboxStatus::kParked;
  r.attempts = 5;
  r.next_attempt_at = at(3'000'003);
  r.last_error = "broker down";
  row.lease_token = "relay-1";
  row.lease_until = 4'000'004;
  const Document document{.name = "n", .id = r.id, .fields = outbox::outbox_fields(row)};
  const kit::OutboxRow back = outbox::outbox_row_of(document, "store");
  EXPECT_EQ(back.record.sequence, 42);
  EXPECT_EQ(back.record.payload, r.payload);
  EXPECT_EQ(back.record.status, OutboxStatus::kParked);
  EXPECT_EQ(back.record.attempts, 5);
  EXPECT_EQ(back.record.next_attempt_at, r.next_attempt_at);
  EXPECT_EQ(back.record.last_error, r.last_error);
  EXPECT_EQ(back.record.correlation_id, r.correlation_id);
  EXPECT_EQ(back.record.source, std::nullopt);
  EXPECT_EQ(back.record.done_at, std::nullopt);
  EXPECT_EQ(back.lease_token, "relay-1");
  EXPECT_EQ(back.lease_until, 4'000'004);
}

TEST(FirestoreOutboxDocument, AnUnknownStatusIsAnInfrastructureErrorNamingTheStore) {
  kit::OutboxRow row;
  row.record.id = "01890a5d-ac96-774b-bcce-b302099a8057";
  nlohmann::json fields = outbox::outbox_fields(row);
  fields["status"] = {{"stringValue", "sent"}};
  try {
    outbox::outbox_row_of(Document{.name = "n", .id = row.record.id, .fields = fields},
                          "Firestore outbox");
    FAIL() << "an unknown status must be refused";
  } catch (const InfrastructureError& e) {
    EXPECT_NE(std::string(e.what()).find("Firestore outbox"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("'sent'"), std::string::npos) << e.what();
  }
}

}  // namespace firestore_outbox_document_test
}  // namespace docket::firestore::detail
