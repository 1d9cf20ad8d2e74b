// docket migrate inbox-ids --store on the Cloud Firestore emulator: inbox entries written
// raw under the legacy id {tenant}_{messageId}_{handlerType}, as an earlier release
// did, in the transactional inbox's and the claim inbox's collections. A dry run
// counts and writes nothing (and docket migrate scan counts them); a run moves each legacy entry to
// its current id with its fields unchanged, where the inbox then finds it; a second run changes
// nothing; a run after an interrupted one finishes it; an entry on neither shape, or whose current
// id is taken, is refused, listed and left as it is (exit 1) while the others move.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "docket/inbox/inbox_schema.h"
#include "docket/keys/inbox_key.h"
#include "docket/stores/open_store.h"
#include "providers/firestore/firestore_claim_document.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_inbox_document.h"
#include "providers/firestore/firestore_query.h"
#include "providers/firestore/firestore_value.h"
#include "providers/firestore/tests/firestore_collections.h"
#include "tool/tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

class FirestoreInboxMigrationTest : public ::testing::Test {
 protected:
  std::string dedup() const { return client_.url().collection(kInboxMessagesTable); }
  std::string claims() const {
    return client_.url().collection(firestore::detail::claim::kCollection);
  }

  static std::string current_id(const std::string& tenant, const std::string& message,
                                const std::string& handler) {
    return keys::compose_inbox_entry_id(
               keys::Provider::kFirestore,
               {.tenant = tenant, .message_id = message, .handler_type = handler})
        .value;
  }

  // An entry as an earlier release wrote one, under `id`: every field of the
  // transactional inbox's entry but the tenant, which lived in the '_'-joined id alone
  // (and a field docket never wrote, which a move keeps).
  void put(const std::string& collection, const std::string& id, const std::string& message,
           const std::string& handler) const {
    write(collection, id,
          nlohmann::json{{"messageId", firestore::detail::string_value(message)},
                         {"handlerType", firestore::detail::string_value(handler)},
                         {"eventType", firestore::detail::string_value("OrderPlaced")},
                         {"occurredAt", firestore::detail::timestamp_value(kLongAgo)},
                         {"processedAt", firestore::detail::timestamp_value(kLongAgo)},
                         {"source", firestore::detail::string_value("orders")},
                         {"causationId", firestore::detail::null_value()},
                         {"correlationId", firestore::detail::null_value()},
                         {"attempts", firestore::detail::integer_value(2)}});
  }

  // A claim inbox entry as an earlier release wrote one: its messageId, handlerType and
  // status fields, the fields that were null left out, and no tenant.
  void put_legacy_claim(const std::string& id, const std::string& message,
                        const std::string& handler, std::string_view status) const {
    nlohmann::json fields{{"messageId", firestore::detail::string_value(message)},
                          {"handlerType", firestore::detail::string_value(handler)},
                          {"status", firestore::detail::string_value(status)},
                          {"retryCount", firestore::detail::integer_value(0)},
                          {"receivedAt", firestore::detail::timestamp_value(kLongAgo)},
                          {"updatedAt", firestore::detail::timestamp_value(kLongAgo)}};
    if (status == "processed") {
      fields["processedAt"] = firestore::detail::timestamp_value(kLongAgo);
    }
    write(claims(), id, fields);
  }

  void write(const std::string& collection, const std::string& id,
             const nlohmann::json& fields) const {
    const firestore::detail::Write write{.collection = collection, .id = id, .fields = fields};
    ASSERT_TRUE(firestore::detail::commit(
                    client_, std::span<const firestore::detail::Write>(&write, 1), "the test")
                    .applied);
  }

  static constexpr Timestamp kLongAgo{std::chrono::seconds(1'600'000'000)};

  // Each document's id -> fields.
  std::map<std::string, nlohmann::json> documents(const std::string& collection) const {
    std::map<std::string, nlohmann::json> out;
    for (const firestore::detail::Document& d :
         firestore::detail::run_query(client_, {.collection = collection})) {
      out[d.id] = d.fields;
    }
    return out;
  }

  ToolRun migrate(std::vector<std::string> extra = {}) const {
    std::vector<std::string> args{"migrate", "inbox-ids", "--store", collections_.url()};
    args.insert(args.end(), extra.begin(), extra.end());
    return run_docket(args);
  }

  test_support::FirestoreCollections collections_;
  firestore::detail::Client client_{firestore::detail::parse_store_url(collections_.url())};
};

TEST_F(FirestoreInboxMigrationTest, LegacyEntriesMoveWholeToTheirCurrentIdOnceAndForAll) {
  put(dedup(), "acme_m-1_billing", "m-1", "billing");
  put(dedup(), "acme_corp_42_H", "42", "H");  // the ambiguous join: tenant "acme_corp"
  put(dedup(), current_id("acme", "m-2", "billing"), "m-2", "billing");
  put_legacy_claim("globex_m:3_billing", "m:3", "billing", "received");
  const auto before = documents(dedup());

  // migrate scan counts the entries not under their current id, in both collections.
  const auto scan = [&] {
    const ToolRun run = run_docket({"migrate", "scan", "--store", collections_.url(), "--json"});
    EXPECT_EQ(run.exit_code, 0) << describe(run);
    return nlohmann::json::parse(run.out);
  };
  const nlohmann::json found = scan();
  EXPECT_EQ(found["legacy"], 3) << found.dump();
  EXPECT_EQ(found["places"][2]["examples"],
            nlohmann::json::array({"acme_corp_42_H", "acme_m-1_billing"}))
      << found.dump();
  EXPECT_EQ(found["places"][3]["examples"], nlohmann::json::array({"globex_m:3_billing"}))
      << found.dump();

  const ToolRun dry = migrate({"--dry-run"});
  EXPECT_EQ(dry.exit_code, 0) << describe(dry);
  EXPECT_THAT(dry.err,
              HasSubstr("4 examined, 3 to re-key, 1 already on the current id, 0 refused"));
  EXPECT_EQ(documents(dedup()), before) << "a dry run writes nothing";

  const ToolRun run = migrate();
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("3 re-keyed, 1 already on the current id, 0 refused"));
  const auto after = documents(dedup());
  EXPECT_EQ(after.size(), 3u);
  // Every field kept, the recovered tenant added.
  const auto with_tenant = [](nlohmann::json fields, const std::string& tenant) {
    fields["tenant"] = firestore::detail::string_value(tenant);
    return fields;
  };
  EXPECT_EQ(after.at(current_id("acme", "m-1", "billing")),
            with_tenant(before.at("acme_m-1_billing"), "acme"));
  EXPECT_EQ(after.at(current_id("acme_corp", "42", "H")),
            with_tenant(before.at("acme_corp_42_H"), "acme_corp"));
  EXPECT_FALSE(after.contains("acme_m-1_billing"));
  EXPECT_TRUE(documents(claims()).contains(current_id("globex", "m:3", "billing")));
  EXPECT_EQ(documents(claims()).size(), 1u);
  // The inbox now finds the moved entry: its message is a duplicate, as it was before
  // the key shape changed.
  EXPECT_TRUE(open_inbox_store(collections_.url())->is_recorded({"acme_corp", "H", "42"}));

  EXPECT_EQ(scan()["legacy"], 0);
  const ToolRun again = migrate();
  EXPECT_EQ(again.exit_code, 0) << describe(again);
  EXPECT_THAT(again.err, HasSubstr("4 examined, 0 re-keyed, 4 already on the current id"));
}

TEST_F(FirestoreInboxMigrationTest, ARunAfterAnInterruptedOneFinishesIt) {
  for (int i = 0; i < 30; ++i) {
    put(dedup(), "acme_m-" + std::to_string(i) + "_billing", "m-" + std::to_string(i), "billing");
  }
  // What an interrupted run leaves: each entry moved whole or not at all (one commit
  // each), here the first ten moved.
  for (int i = 0; i < 10; ++i) {
    const std::string message = "m-" + std::to_string(i);
    const std::array<firestore::detail::Write, 2> moved{
        firestore::detail::Write{.collection = dedup(),
                                 .id = current_id("acme", message, "billing"),
                                 .fields = documents(dedup()).at("acme_" + message + "_billing")},
        firestore::detail::Write{.collection = dedup(), .id = "acme_" + message + "_billing"}};
    ASSERT_TRUE(firestore::detail::commit(client_, moved, "the test").applied);
  }
  const ToolRun run = migrate();
  EXPECT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("30 examined, 20 re-keyed, 10 already on the current id"));
  const auto after = documents(dedup());
  EXPECT_EQ(after.size(), 30u);
  for (const auto& [id, fields] : after) {
    EXPECT_THAT(id, ::testing::StartsWith("inbox:acme:m-")) << id;
  }
}

TEST_F(FirestoreInboxMigrationTest, AnEntryOnNeitherShapeOrWhoseIdIsTakenIsRefusedAndKept) {
  put(dedup(), "x_y_z", "q", "H");                     // neither shape
  put(dedup(), "acme_m-1_billing", "m-1", "billing");  // its current id taken below
  put(dedup(), current_id("acme", "m-1", "billing"), "m-1", "billing");
  put(dedup(), "acme_m-2_billing", "m-2", "billing");  // moves
  const ToolRun run = migrate();
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("the entry x_y_z has the id \"x_y_z\", on neither shape"));
  EXPECT_THAT(run.err,
              HasSubstr("the entry acme_m-1_billing has the legacy id, but its current id"));
  EXPECT_THAT(run.err, HasSubstr("1 re-keyed, 1 already on the current id, 2 refused"));
  const auto after = documents(dedup());
  EXPECT_TRUE(after.contains("x_y_z"));
  EXPECT_TRUE(after.contains("acme_m-1_billing"));
  EXPECT_TRUE(after.contains(current_id("acme", "m-2", "billing")));
  EXPECT_FALSE(after.contains("acme_m-2_billing"));
}

// A migrated entry is indistinguishable from one docket wrote: it carries the tenant
// its legacy id held (and every field docket writes, a null one written as null), so
// the claim inbox's administration finds it by tenant: `inbox stats` reads every entry,
// `inbox stats --tenant` and `inbox cleanup --tenant` find the tenant's.
TEST_F(FirestoreInboxMigrationTest, AMigratedEntryCarriesItsTenantLikeOneDocketWrote) {
  put_legacy_claim("acme_m-1_billing", "m-1", "billing", "processed");
  put_legacy_claim("acme_m-2_billing", "m-2", "billing", "received");
  put_legacy_claim("globex_m-3_billing", "m-3", "billing", "processed");
  put(dedup(), "acme_m-1_billing", "m-1", "billing");
  const ToolRun run = migrate();
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("4 re-keyed, 0 already on the current id, 0 refused"));

  // Each claim entry reads as docket reads one, and holds the fields docket writes
  // when it writes that entry back, no fewer.
  for (const auto& [id, fields] : documents(claims())) {
    const firestore::detail::Document document{.name = "", .id = id, .fields = fields};
    const nlohmann::json written = firestore::detail::claim::claim_fields(
        firestore::detail::claim::claim_entry_of(document, "the test"));
    EXPECT_EQ(fields.size(), written.size()) << id << ": " << fields.dump();
    for (const auto& [name, value] : written.items()) {
      EXPECT_TRUE(fields.contains(name)) << id << " lacks " << name;
    }
  }
  const nlohmann::json dedup_entry = documents(dedup()).at(current_id("acme", "m-1", "billing"));
  EXPECT_EQ(dedup_entry.value("tenant", nlohmann::json()), firestore::detail::string_value("acme"));

  const ToolRun all = run_docket({"inbox", "stats", "--store", collections_.url(), "--json"});
  ASSERT_EQ(all.exit_code, 0) << describe(all);
  EXPECT_EQ(nlohmann::json::parse(all.out)["processed"], 2) << all.out;
  EXPECT_EQ(nlohmann::json::parse(all.out)["received"], 1) << all.out;
  const ToolRun acme =
      run_docket({"inbox", "stats", "--store", collections_.url(), "--tenant", "acme", "--json"});
  ASSERT_EQ(acme.exit_code, 0) << describe(acme);
  EXPECT_EQ(nlohmann::json::parse(acme.out)["processed"], 1) << acme.out;
  EXPECT_EQ(nlohmann::json::parse(acme.out)["received"], 1) << acme.out;
  const ToolRun cleanup = run_docket({"inbox", "cleanup", "--store", collections_.url(),
                                      "--older-than", "1d", "--tenant", "acme", "--json"});
  ASSERT_EQ(cleanup.exit_code, 0) << describe(cleanup);
  EXPECT_EQ(nlohmann::json::parse(cleanup.out)["removed"], 1) << cleanup.out;
  EXPECT_FALSE(documents(claims()).contains(current_id("acme", "m-1", "billing")));
  EXPECT_TRUE(documents(claims()).contains(current_id("globex", "m-3", "billing")));
}

// An entry docket could not read once moved is refused and left as it is: one lacking
// a field docket writes on every entry (named), one whose own tenant field names
// another tenant than its legacy id.
TEST_F(FirestoreInboxMigrationTest, AnEntryDocketCouldNotReadOrOfAnotherTenantIsRefused) {
  write(claims(), "acme_m-1_billing",
        {{"messageId", firestore::detail::string_value("m-1")},
         {"handlerType", firestore::detail::string_value("billing")},
         {"status", firestore::detail::string_value("received")}});
  put_legacy_claim("acme_m-2_billing", "m-2", "billing", "received");
  write(claims(), "acme_m-3_billing",
        {{"messageId", firestore::detail::string_value("m-3")},
         {"handlerType", firestore::detail::string_value("billing")},
         {"tenant", firestore::detail::string_value("globex")},
         {"status", firestore::detail::string_value("received")},
         {"retryCount", firestore::detail::integer_value(0)},
         {"receivedAt", firestore::detail::timestamp_value(kLongAgo)},
         {"updatedAt", firestore::detail::timestamp_value(kLongAgo)}});
  const ToolRun run = migrate();
  EXPECT_EQ(run.exit_code, 1) << describe(run);
  EXPECT_THAT(run.err, HasSubstr("the entry acme_m-1_billing lacks the fields retryCount, "
                                 "receivedAt, updatedAt"));
  EXPECT_THAT(run.err, HasSubstr("the entry acme_m-3_billing names the tenant 'globex'"));
  EXPECT_THAT(run.err, HasSubstr("1 re-keyed, 0 already on the current id, 2 refused"));
  const auto after = documents(claims());
  EXPECT_TRUE(after.contains("acme_m-1_billing"));
  EXPECT_TRUE(after.contains("acme_m-3_billing"));
  EXPECT_TRUE(after.contains(current_id("acme", "m-2", "billing")));
}

}  // namespace
}  // namespace docket::testing
