// `docket migrate tenant-rekey`, the same cases on every provider whose stores can
// hold legacy untenanted records (DynamoDB Local, the Firestore emulator): each
// provider's test file seeds legacy records raw, the way an earlier release wrote
// them, through a LegacySeeder, and runs these cases, which drive the real docket
// binary as a child process (tool_runner.h) and check the store through the tool's own
// read-only commands (`migrate scan`, `events show`, `sagas show`).
#ifndef DOCKET_TESTS_TOOL_TENANT_REKEY_CASES_H_
#define DOCKET_TESTS_TOOL_TENANT_REKEY_CASES_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "docket/clock.h"

namespace docket::testing {

// Writes records straight into a provider's event and saga tables or collections.
class LegacySeeder {
 public:
  virtual ~LegacySeeder() = default;
  // The store URL, under a prefix of this seeder's own.
  virtual std::string url() const = 0;
  // An event of the stream `type`/`id` at `version`: under the legacy untenanted key
  // (the raw terms joined) when `tenant` is nullopt, else under the tenant-keyed key the
  // store composes, with the fields the re-key would give it.
  virtual void put_event(std::string_view type, std::string_view id, std::int64_t version,
                         std::string_view event_id, std::string_view payload,
                         const std::optional<std::string>& tenant = std::nullopt) const = 0;
  // A saga, likewise.
  virtual void put_saga(std::string_view type, std::string_view id, std::int64_t version,
                        std::string_view state,
                        const std::optional<std::string>& tenant = std::nullopt) const = 0;
  // A legacy saga completed at `completed_at`.
  virtual void put_completed_saga(std::string_view type, std::string_view id, std::int64_t version,
                                  Timestamp completed_at) const = 0;
};

// Every case fails the calling test through gtest assertions.
namespace tenant_rekey_cases {

// Legacy streams (one past a provider's batch) and sagas are refused by events/sagas
// show; a dry run writes nothing; the re-key moves every record once, verifies, and
// the show commands answer with every event and the saga's version and state; a
// second run moves nothing.
void moves_every_record_and_show_answers_after(const LegacySeeder& seeder);

// A run killed (SIGKILL) after its first stream is finished by the next: every event
// and saga moved once.
void a_killed_run_is_finished_by_the_next(const LegacySeeder& seeder);

// A stream left half moved (its first events under the tenant, the rest legacy, as a
// run killed between two batches of one stream leaves it) is finished, and verified
// whole: versions 0..n under the tenant, the export's last version and event ids.
void a_half_moved_stream_is_finished_and_verified_whole(const LegacySeeder& seeder);

// A stream that loads under the tenant with more than the export (an event appended
// under the tenant beyond the legacy ones) fails the verification: exit 1 naming the
// stream and what was found.
void the_verification_reports_a_stream_unlike_its_export(const LegacySeeder& seeder);

// A completed legacy saga moves completed, and the saga store's purge finds it under
// the tenant and across tenants (the attributes or fields its indexes read are set).
void a_completed_saga_moves_and_is_purged_under_the_tenant(const LegacySeeder& seeder);

// A new key holding the same record: the old one is only deleted (counted as already
// moved). A new key holding another record: exit 1 naming both keys, nothing more
// written.
void a_taken_new_key_is_resumed_or_refused(const LegacySeeder& seeder);

// A blank tenant, and a tenant neither sentinel nor present without --yes, are refused
// writing nothing; --yes, or a tenant the store holds already, goes ahead.
void the_tenant_is_checked_before_anything_is_written(const LegacySeeder& seeder);

// A legacy stream key whose raw terms hold ':' more than once is refused, listing it,
// nothing written; the one --aggregate-type that fits it splits it.
void an_ambiguous_stream_key_is_refused_unless_its_type_is_named(const LegacySeeder& seeder);

}  // namespace tenant_rekey_cases
}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_TENANT_REKEY_CASES_H_
