// Reads of items by key with ConsistentRead, so a read sees every write acknowledged
// before it: one item (GetItem), or many by their string partition key (BatchGetItem,
// at most 100 keys a request, DynamoDB's limit; the keys it leaves unprocessed,
// throttled or past the 16 MB answer limit, asked again until none are left). The
// stores' finds and loads read one item this way; the outbox its key items and the
// messages it releases, the inbox its dedup items, many. A missing item is no error:
// it is not answered.
//
// Thread-safety: a pure function over a Client that may be shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CONSISTENT_READS_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CONSISTENT_READS_H_

#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail {

// The item of `table` under `key` (its whole key), if there is one; `projection`: a
// ProjectionExpression with #names, empty for all attributes.
std::optional<nlohmann::json> consistent_get(const Client& client, const std::string& table,
                                             const nlohmann::json& key,
                                             std::string_view projection = "");

struct BatchGet {
  std::string_view key_attribute;  // the table's partition key (a string), e.g. "id"
  std::string_view projection{};   // a ProjectionExpression with #names, empty for all
};

// The items of `table` under `ids` (each asked once) that exist, by id, read with
// ConsistentRead. The projection must include the key attribute. Throws
// InfrastructureError naming `store` when DynamoDB leaves keys unprocessed 25 rounds in
// a row.
std::map<std::string, nlohmann::json> consistent_batch_get(const Client& client,
                                                           const std::string& table,
                                                           std::string_view store,
                                                           std::span<const std::string> ids,
                                                           const BatchGet& get);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_CONSISTENT_READS_H_
