// One saga as the Redis saga store keeps it: a hash at P saga:t:{tenant}:{saga type}:
// {saga id} (redis_keyspace.h) with the saga's terms (tenant, saga_type, saga_id, so a
// listing rebuilds the SagaId from the hash alone), version, state, started_at,
// updated_at and, once completed, completed_at (times in Unix microseconds). A saga is
// completed exactly when completed_at is there.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_SAGA_FIELDS_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_SAGA_FIELDS_H_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "docket/sagas/saga_id.h"
#include "docket/sagas/saga_store.h"

namespace docket::redis::detail {

// The fields, name then value, of `saga` at `record`.
std::vector<std::string> saga_fields(const SagaId& saga, const SagaRecord& record);

// The record, and the summary, a saga's hash (HGETALL's pairs) holds. Throw
// InfrastructureError naming `store` when a field is missing or malformed.
SagaRecord saga_record_of(std::span<const std::string> pairs, std::string_view store);
SagaSummary saga_summary_of(std::span<const std::string> pairs, std::string_view store);

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_SAGA_FIELDS_H_
