// docket migrate tenant-rekey on DynamoDB Local (tests/tool/tenant_rekey_cases.h): legacy
// items written raw, as an earlier release stored them (streams keyed
// {aggregateType}:{aggregateId}, sagas SAGA#{sagaId} with no tenant attribute), under a
// table prefix of the test's own.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "docket/keys/provider.h"
#include "docket/tenant.h"
#include "docket/uuid.h"
#include "providers/dynamodb/dynamodb_attribute.h"
#include "providers/dynamodb/dynamodb_client.h"
#include "providers/dynamodb/dynamodb_event_item.h"
#include "providers/dynamodb/dynamodb_saga_item.h"
#include "providers/dynamodb/dynamodb_table_ensurer.h"
#include "providers/dynamodb/tests/dynamodb_tables.h"
#include "providers/kit/key_bridge.h"
#include "tool/tenant_rekey_cases.h"

namespace docket::testing {
namespace {

class DynamoDbLegacySeeder final : public LegacySeeder {
 public:
  std::string url() const override { return tables_.url(); }

  void put_event(std::string_view type, std::string_view id, std::int64_t version,
                 std::string_view event_id, std::string_view payload,
                 const std::optional<std::string>& tenant) const override {
    const StreamId stream(TenantId::from_stored(tenant.value_or("__default__")), type, id);
    const RecordedEvent event{.stream = stream,
                              .version = version,
                              .global_position = 0,
                              .event_id = Uuid::parse(event_id).value(),
                              .type = "happened",
                              .payload = std::string(payload),
                              .metadata = {},
                              .occurred_at = Timestamp(std::chrono::seconds(1'800'000'000))};
    // The legacy key joins the raw terms, as the earlier release did.
    const std::string key = tenant ? kit::stream_key(keys::Provider::kDynamoDb, stream).value
                                   : std::string(type) + ":" + std::string(id);
    put(dynamodb::events_table_schema(tables_.prefix() + std::string(dynamodb::kEventsTableBase)),
        dynamodb::event_item(key, event));
  }

  void put_saga(std::string_view type, std::string_view id, std::int64_t version,
                std::string_view state, const std::optional<std::string>& tenant) const override {
    const SagaId saga(TenantId::from_stored(tenant.value_or("__default__")), type, id);
    put_saga_record(saga, tenant.has_value(),
                    SagaRecord{.version = version,
                               .state = std::string(state),
                               .status = SagaStatus::kActive,
                               .started_at = Timestamp(std::chrono::seconds(1'800'000'000)),
                               .updated_at = Timestamp(std::chrono::seconds(1'800'000'001)),
                               .completed_at = std::nullopt});
  }

  void put_completed_saga(std::string_view type, std::string_view id, std::int64_t version,
                          Timestamp completed_at) const override {
    put_saga_record(SagaId(TenantId::default_tenant(), type, id), false,
                    SagaRecord{.version = version,
                               .state = "done",
                               .status = SagaStatus::kCompleted,
                               .started_at = Timestamp(std::chrono::seconds(1'800'000'000)),
                               .updated_at = completed_at,
                               .completed_at = completed_at});
  }

 private:
  // The saga's item; a legacy one keyed SAGA#{sagaId}, without the attributes its
  // indexes read (tenant, shard).
  void put_saga_record(const SagaId& saga, bool tenanted, const SagaRecord& record) const {
    const dynamodb::TableSchema schema = dynamodb::saga::saga_table_schema(client_.url());
    nlohmann::json item = dynamodb::saga::saga_item(schema, saga, record);
    if (!tenanted) {
      item[std::string(dynamodb::saga::kKey)] = dynamodb::string_value("SAGA#" + saga.saga_id());
      item.erase(std::string(dynamodb::saga::kTenant));
      item.erase(std::string(dynamodb::saga::kShard));
    }
    put(schema, item);
  }

  void put(const dynamodb::TableSchema& schema, const nlohmann::json& item) const {
    dynamodb::ensure_table(client_, schema);
    const dynamodb::Response response = client_.call(
        {.operation = "PutItem", .table = schema.name, .replay = dynamodb::Replay::kSafe},
        {{"TableName", schema.name}, {"Item", item}});
    ASSERT_TRUE(response.ok());
  }

  test_support::DynamoDbTables tables_;
  dynamodb::Client client_{dynamodb::parse_store_url(tables_.url())};
};

TEST(DynamoDbTenantRekey, MovesEveryRecordAndShowAnswersAfter) {
  tenant_rekey_cases::moves_every_record_and_show_answers_after(DynamoDbLegacySeeder());
}

TEST(DynamoDbTenantRekey, AKilledRunIsFinishedByTheNext) {
  tenant_rekey_cases::a_killed_run_is_finished_by_the_next(DynamoDbLegacySeeder());
}

TEST(DynamoDbTenantRekey, AHalfMovedStreamIsFinishedAndVerifiedWhole) {
  tenant_rekey_cases::a_half_moved_stream_is_finished_and_verified_whole(DynamoDbLegacySeeder());
}

TEST(DynamoDbTenantRekey, TheVerificationReportsAStreamUnlikeItsExport) {
  tenant_rekey_cases::the_verification_reports_a_stream_unlike_its_export(DynamoDbLegacySeeder());
}

TEST(DynamoDbTenantRekey, ACompletedSagaMovesAndIsPurgedUnderTheTenant) {
  tenant_rekey_cases::a_completed_saga_moves_and_is_purged_under_the_tenant(DynamoDbLegacySeeder());
}

TEST(DynamoDbTenantRekey, ATakenNewKeyIsResumedOrRefused) {
  tenant_rekey_cases::a_taken_new_key_is_resumed_or_refused(DynamoDbLegacySeeder());
}

TEST(DynamoDbTenantRekey, TheTenantIsCheckedBeforeAnythingIsWritten) {
  tenant_rekey_cases::the_tenant_is_checked_before_anything_is_written(DynamoDbLegacySeeder());
}

TEST(DynamoDbTenantRekey, AnAmbiguousStreamKeyIsRefusedUnlessItsTypeIsNamed) {
  tenant_rekey_cases::an_ambiguous_stream_key_is_refused_unless_its_type_is_named(
      DynamoDbLegacySeeder());
}

}  // namespace
}  // namespace docket::testing
