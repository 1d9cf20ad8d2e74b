// What the relational providers (SQLite, PostgreSQL) share to list checkpoints
// (CheckpointStore::list): the SELECT of one page over docket_consumer_checkpoints,
// one condition per filter set, in key order (tenant, consumer_id) behind the page's
// position (a row-value comparison, so the read is a range of the primary key), asking
// for one row past the limit, which tells list() that a next page exists.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_CHECKPOINT_STORE_LISTING_H_
#define DOCKET_PROVIDERS_KIT_CHECKPOINT_STORE_LISTING_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "docket/inbox/checkpoint_store.h"
#include "providers/kit/sql_listing_query.h"

namespace docket::kit {

// The query of one page: SELECT tenant, consumer_id, position, <updated_at as Unix
// microseconds>. `placeholder` is the provider's numbered parameter sign: '?' (SQLite)
// or '$' (PostgreSQL); `updated_at_micros` the column's value as Unix microseconds in
// its SQL.
inline SqlListingQuery checkpoint_list_sql(const CheckpointListRequest& request, char placeholder,
                                           std::string_view updated_at_micros) {
  SqlListingQuery query(placeholder);
  if (request.tenant) {
    query.add("tenant = " + query.bind(request.tenant->value()), 't');
  }
  if (request.consumer_id) {
    query.add("consumer_id = " + query.bind(*request.consumer_id), 'c');
  }
  if (request.after) {
    const std::string tenant = query.bind(request.after->tenant.value());
    query.add(
        "(tenant, consumer_id) > (" + tenant + ", " + query.bind(request.after->consumer_id) + ")",
        'p');
  }
  query.sql = "SELECT tenant, consumer_id, position, " + std::string(updated_at_micros) +
              " FROM docket_consumer_checkpoints" + query.where() +
              " ORDER BY tenant, consumer_id LIMIT " +
              query.bind(static_cast<std::int64_t>(request.limit) + 1);
  return query;
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_CHECKPOINT_STORE_LISTING_H_
