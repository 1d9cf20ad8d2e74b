// The Firestore outbox store's queries (firestore_outbox_queries.h).
#include "providers/firestore/firestore_outbox_queries.h"

#include <string>

#include "providers/firestore/firestore_outbox_document.h"
#include "providers/firestore/firestore_value.h"

namespace docket::firestore::detail::outbox {

nlohmann::json status_is(OutboxStatus status) {
  return field_filter(kStatus, "EQUAL", string_value(to_string(status)));
}

Query with_status(std::string_view collection, OutboxStatus status) {
  return Query{.collection = std::string(collection),
               .where = status_is(status),
               .order_by = {{std::string(kSequence), false}}};
}

bool parked_before(const Client& client, std::string_view collection, const OutboxRecord& record) {
  return !run_query(
              client,
              Query{.collection = std::string(collection),
                    .where = all_of(
                        {status_is(OutboxStatus::kParked),
                         field_filter(kTenant, "EQUAL", string_value(record.tenant)),
                         field_filter(kOrderingKey, "EQUAL", string_value(*record.ordering_key)),
                         field_filter(kSequence, "LESS_THAN", integer_value(record.sequence))}),
                    .order_by = {{std::string(kSequence), false}},
                    .limit = 1})
              .empty();
}

std::vector<OutboxRecord> records(const Client& client, const Query& query,
                                  std::string_view store) {
  std::vector<OutboxRecord> result;
  for (const Document& document : run_query(client, query)) {
    result.push_back(outbox_row_of(document, store).record);
  }
  return result;
}

}  // namespace docket::firestore::detail::outbox
