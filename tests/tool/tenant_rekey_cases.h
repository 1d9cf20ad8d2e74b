// `docket migrate tenant-rekey`, the same cases on every provider whose stores can
// hold legacy untenanted records (DynamoDB Local, the Firestore emulator): each
// provider's test file seeds legacy records raw, the way an earlier release wrote
// them, through a LegacySeeder, and instantiates these cases (TenantRekey, a
// value-parameterized suite over the seeder's factory), which drive the real docket
// binary as a child process (tool_runner.h) and check the store through the tool's own
// read-only commands (`migrate scan`, `events show`, `sagas show`).
#ifndef DOCKET_TESTS_TOOL_TENANT_REKEY_CASES_H_
#define DOCKET_TESTS_TOOL_TENANT_REKEY_CASES_H_

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/core/clock.h"
#include "docket/eventsourcing/event.h"
#include "docket/eventsourcing/stream_id.h"
#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"

namespace docket::testing {

// Writes records straight into a provider's event and saga tables or collections. The
// records are built here, the same on every provider; each provider writes them under
// its legacy or its tenant-keyed keys.
class LegacySeeder {
 public:
  virtual ~LegacySeeder() = default;
  // The store URL, under a prefix of this seeder's own.
  virtual std::string url() const = 0;
  // Whether the provider moves a batch of records in one atomic write, so that a killed
  // run leaves no record both moved and not deleted (false on Cosmos DB, whose stream
  // moves are a batch of creates and then a batch of deletes, in two partitions).
  virtual bool moves_atomically() const { return true; }

  // An event of the stream `type`/`id` at `version`: under the legacy untenanted key
  // (the raw terms joined) when `tenant` is nullopt, else under the tenant-keyed key the
  // store composes, with the fields the re-key would give it.
  void put_event(std::string_view type, std::string_view id, std::int64_t version,
                 std::string_view event_id, std::string_view payload,
                 const std::optional<std::string>& tenant = std::nullopt) const;
  // A saga, likewise.
  void put_saga(std::string_view type, std::string_view id, std::int64_t version,
                std::string_view state,
                const std::optional<std::string>& tenant = std::nullopt) const;
  // A legacy event and a legacy saga whose own tenant field (attribute) names
  // `own_tenant`, as a release that kept the tenant beside an untenanted key wrote them.
  void put_event_naming(std::string_view own_tenant, std::string_view type, std::string_view id,
                        std::int64_t version, std::string_view event_id) const;
  void put_saga_naming(std::string_view own_tenant, std::string_view type, std::string_view id,
                       std::int64_t version, std::string_view state) const;
  // A legacy saga completed at `completed_at`.
  void put_completed_saga(std::string_view type, std::string_view id, std::int64_t version,
                          Timestamp completed_at) const;

  // The event put_event writes: its stream under `tenant` (the default tenant for a
  // legacy one), type "happened", occurred at a fixed time.
  static RecordedEvent legacy_event(std::string_view type, std::string_view id,
                                    std::int64_t version, std::string_view event_id,
                                    std::string_view payload,
                                    const std::optional<std::string>& tenant);

 protected:
  // Writes `event` under its tenant-keyed key when `tenanted`, else under the legacy key.
  virtual void write_event(const RecordedEvent& event, bool tenanted) const = 0;
  // Writes the saga's record, likewise.
  virtual void write_saga(const SagaId& saga, bool tenanted, const SagaRecord& record) const = 0;
  // Writes `event` (the saga's record) under the legacy key, with a tenant field
  // (attribute) naming `own_tenant`.
  virtual void write_event_naming(const RecordedEvent& event,
                                  std::string_view own_tenant) const = 0;
  virtual void write_saga_naming(const SagaId& saga, const SagaRecord& record,
                                 std::string_view own_tenant) const = 0;
};

// What a provider's test file instantiates the cases with:
//   INSTANTIATE_TEST_SUITE_P(DynamoDb, TenantRekey, ::testing::Values(&make_seeder));
using LegacySeederFactory = std::unique_ptr<LegacySeeder> (*)();

// Every case runs on a fresh seeder (a prefix of its own) from the parameter's factory.
class TenantRekey : public ::testing::TestWithParam<LegacySeederFactory> {
 protected:
  std::unique_ptr<LegacySeeder> seeder_ = GetParam()();
};

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_TENANT_REKEY_CASES_H_
