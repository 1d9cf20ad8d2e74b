// docket migrate tenant-rekey on the Cloud Firestore emulator
// (tests/tool/tenant_rekey_cases.h): legacy documents written raw, as an earlier
// release stored them (event ids {aggregateType}:{aggregateId}:{version}, saga ids
// {sagaId}_{sagaType}, without tenant or term fields), under a collection prefix of the
// test's own; and what only Firestore has: documents whose own term fields name the
// split of an ambiguous id, and the '_' of a legacy saga id.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>

#include "docket/keys/provider.h"
#include "providers/firestore/firestore_client.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_event_document.h"
#include "providers/firestore/firestore_saga_document.h"
#include "providers/firestore/firestore_value.h"
#include "providers/firestore/tests/firestore_collections.h"
#include "providers/kit/key_bridge.h"
#include "tool/tenant_rekey_cases.h"
#include "tool/tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;

class FirestoreLegacySeeder final : public LegacySeeder {
 public:
  std::string url() const override { return collections_.url(); }

  // A legacy event document, carrying its aggregateType and aggregateId fields when
  // `with_terms`, and a tenant field when `own_tenant` names one.
  void put_legacy_event_fields(std::string_view type, std::string_view id, std::int64_t version,
                               std::string_view event_id, std::string_view payload, bool with_terms,
                               const std::optional<std::string>& own_tenant = std::nullopt) const {
    write_legacy_event(legacy_event(type, id, version, event_id, payload, std::nullopt), with_terms,
                       own_tenant);
  }

 protected:
  void write_event(const RecordedEvent& event, bool tenanted) const override {
    if (!tenanted) {
      write_legacy_event(event, false, std::nullopt);
      return;
    }
    write(firestore::detail::event::kCollection,
          kit::event_document_id(keys::Provider::kFirestore, event.stream, event.version).value,
          firestore::detail::event::event_fields(event));
  }

  // The saga's document; a legacy one under {sagaId}_{sagaType}, without the tenant and
  // term fields.
  void write_saga(const SagaId& saga, bool tenanted, const SagaRecord& record) const override {
    nlohmann::json fields = firestore::detail::saga::saga_fields(saga, record);
    std::string document_id = firestore::detail::saga::saga_document_id(saga);
    if (!tenanted) {
      document_id = saga.saga_id() + "_" + saga.saga_type();
      for (const std::string_view field :
           {firestore::detail::saga::kTenant, firestore::detail::saga::kSagaType,
            firestore::detail::saga::kSagaId}) {
        fields.erase(std::string(field));
      }
    }
    write(firestore::detail::saga::kCollection, document_id, fields);
  }

  void write_event_naming(const RecordedEvent& event, std::string_view own_tenant) const override {
    write_legacy_event(event, false, std::string(own_tenant));
  }

  void write_saga_naming(const SagaId& saga, const SagaRecord& record,
                         std::string_view own_tenant) const override {
    nlohmann::json fields = firestore::detail::saga::saga_fields(saga, record);
    fields.erase(std::string(firestore::detail::saga::kSagaType));
    fields.erase(std::string(firestore::detail::saga::kSagaId));
    fields[std::string(firestore::detail::saga::kTenant)] =
        firestore::detail::string_value(own_tenant);
    write(firestore::detail::saga::kCollection, saga.saga_id() + "_" + saga.saga_type(), fields);
  }

 private:
  void write_legacy_event(const RecordedEvent& event, bool with_terms,
                          const std::optional<std::string>& own_tenant) const {
    nlohmann::json fields = firestore::detail::event::event_fields(event);
    // The legacy id joins the raw terms, as the earlier release did.
    const std::string document_id = event.stream.aggregate_type() + ":" +
                                    event.stream.aggregate_id() + ":" +
                                    std::to_string(event.version);
    fields.erase(std::string(firestore::detail::event::kTenant));
    if (own_tenant) {
      fields[std::string(firestore::detail::event::kTenant)] =
          firestore::detail::string_value(*own_tenant);
    }
    if (!with_terms) {
      fields.erase(std::string(firestore::detail::event::kAggregateType));
      fields.erase(std::string(firestore::detail::event::kAggregateId));
    }
    write(firestore::detail::event::kCollection, document_id, fields);
  }

  void write(std::string_view base, const std::string& id, const nlohmann::json& fields) const {
    const firestore::detail::Write write{
        .collection = client_.url().collection(base), .id = id, .fields = fields};
    ASSERT_TRUE(firestore::detail::commit(
                    client_, std::span<const firestore::detail::Write>(&write, 1), "the test")
                    .applied);
  }

  test_support::FirestoreCollections collections_;
  firestore::detail::Client client_{firestore::detail::parse_store_url(collections_.url())};
};

std::unique_ptr<LegacySeeder> make_firestore_seeder() {
  return std::make_unique<FirestoreLegacySeeder>();
}

INSTANTIATE_TEST_SUITE_P(Firestore, TenantRekey, ::testing::Values(&make_firestore_seeder));

TEST(FirestoreTenantRekey, ADocumentsOwnTermFieldsSplitItsId) {
  const FirestoreLegacySeeder seeder;
  // order:a:b:0 alone is ambiguous; its fields say the type is "order:a".
  seeder.put_legacy_event_fields("order:a", "b", 0, "0190a6c2-0000-7000-8000-000000000001", "x",
                                 true);
  const ToolRun run = run_docket(
      {"migrate", "tenant-rekey", "--store", seeder.url(), "--tenant", "__default__", "--json"});
  ASSERT_EQ(run.exit_code, 0) << describe(run);
  EXPECT_EQ(nlohmann::json::parse(run.out)["events"], 1) << run.out;
  const ToolRun shown =
      run_docket({"events", "show", "--store", seeder.url(), "--tenant", "__default__",
                  "--aggregate-type", "order:a", "--aggregate-id", "b", "--json"});
  ASSERT_EQ(shown.exit_code, 0) << describe(shown);
  EXPECT_EQ(nlohmann::json::parse(shown.out)["events"].size(), 1u) << shown.out;
}

TEST(FirestoreTenantRekey, ADocumentNamingAnotherTenantIsRefused) {
  const FirestoreLegacySeeder seeder;
  // An earlier release kept the tenant as a field; its key had none.
  seeder.put_legacy_event_fields("order", "O-1", 0, "0190a6c2-0000-7000-8000-000000000001", "x",
                                 false, std::string("globex"));
  const std::vector<std::string> args{"migrate",    "tenant-rekey", "--store",
                                      seeder.url(), "--tenant",     "__default__"};
  const ToolRun refused = run_docket(args);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("names the tenant 'globex' in its own field"));
  EXPECT_THAT(refused.err, HasSubstr("nothing was written"));

  const ToolRun moved = run_docket({"migrate", "tenant-rekey", "--store", seeder.url(), "--tenant",
                                    "globex", "--yes", "--json"});
  ASSERT_EQ(moved.exit_code, 0) << describe(moved);
  EXPECT_EQ(nlohmann::json::parse(moved.out)["events"], 1) << moved.out;
}

TEST(FirestoreTenantRekey, ASagaIdHoldingUnderscoresNeedsItsSagaTypeNamed) {
  const FirestoreLegacySeeder seeder;
  seeder.put_saga("order_saga", "O_1", 2, "paid", std::nullopt);  // stored as O_1_order_saga
  const std::vector<std::string> args{"migrate",    "tenant-rekey", "--store",
                                      seeder.url(), "--tenant",     "__default__"};
  const ToolRun refused = run_docket(args);
  EXPECT_EQ(refused.exit_code, 1) << describe(refused);
  EXPECT_THAT(refused.err, HasSubstr("'O_1_order_saga'"));
  EXPECT_THAT(refused.err, HasSubstr("--saga-type"));

  std::vector<std::string> named = args;
  named.insert(named.end(), {"--saga-type", "order_saga"});
  const ToolRun moved = run_docket(named);
  ASSERT_EQ(moved.exit_code, 0) << describe(moved);
  const ToolRun shown =
      run_docket({"sagas", "show", "--store", seeder.url(), "--tenant", "__default__",
                  "--saga-type", "order_saga", "--saga-id", "O_1", "--json"});
  ASSERT_EQ(shown.exit_code, 0) << describe(shown);
  EXPECT_EQ(nlohmann::json::parse(shown.out)["saga"]["version"], 2) << shown.out;
}

}  // namespace
}  // namespace docket::testing
