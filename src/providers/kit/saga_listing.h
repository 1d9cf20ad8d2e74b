// What the providers share to list sagas (SagaStore::list): the query of one page on
// the relational providers (SQLite, PostgreSQL), written once: the SELECT over
// docket_sagas with one condition per filter set, in key order (tenant, saga_type,
// saga_id) behind the page's position; the summary a row or item makes; and a page cut
// from the limit + 1 matches a provider reads (the one past the limit says that a next
// page exists), which every provider but memory uses.
//
// Key order is the primary key's, so the read is an index range, not a sort, starting
// at the position (a row-value comparison over the key columns no filter pins): with
// --status active it is the partial index docket_sagas_active (the same columns, only
// rows with completed_at IS NULL; schema version 5), so that listing the few active
// sagas among many completed ones reads only those. The status conditions are written
// as that index's predicate (completed_at IS [NOT] NULL), which is what `completed`
// says too: every save sets both. The SELECT asks for one row past the limit, which
// tells whether a next page exists.
//
// Thread-safety: pure functions.
#ifndef DOCKET_PROVIDERS_KIT_SAGA_LISTING_H_
#define DOCKET_PROVIDERS_KIT_SAGA_LISTING_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "docket/sagas/saga_store.h"
#include "providers/kit/sql_listing_query.h"
#include "providers/kit/time_codec.h"

namespace docket::kit {

// The query of one page: SELECT tenant, saga_type, saga_id, version, started_at,
// updated_at, completed_at (times in Unix microseconds, completed_at NULL while
// active). `placeholder` is the provider's numbered parameter sign: '?' (SQLite) or
// '$' (PostgreSQL).
inline SqlListingQuery saga_list_sql(const SagaListRequest& request, char placeholder) {
  SqlListingQuery query(placeholder);
  if (request.tenant) {
    query.add("tenant = " + query.bind(request.tenant->value()), 't');
  }
  if (request.saga_type) {
    query.add("saga_type = " + query.bind(*request.saga_type), 'y');
  }
  if (request.status) {
    const bool active = *request.status == SagaStatus::kActive;
    query.add(active ? "completed_at IS NULL" : "completed_at IS NOT NULL", active ? 'a' : 'c');
  }
  if (request.updated_before) {
    query.add("updated_at < " + query.bind(to_micros(*request.updated_before)), 'u');
  }
  if (request.after) {
    // Behind the position in key order, comparing only the key columns that no
    // equality filter pins (the position is of the same tenant and type: list()
    // checks it), so that the search starts at the position within the pinned prefix
    // rather than at the prefix's first row.
    const SagaId& saga = request.after->saga;
    std::string columns;
    std::string values;
    const auto compare = [&](std::string_view column, const std::string& value) {
      columns += (columns.empty() ? "" : ", ") + std::string(column);
      values += (values.empty() ? "" : ", ") + query.bind(value);
    };
    if (!request.tenant) {
      compare("tenant", saga.tenant().value());
    }
    if (!request.tenant || !request.saga_type) {
      compare("saga_type", saga.saga_type());
    }
    compare("saga_id", saga.saga_id());
    query.add("(" + columns + ") > (" + values + ")", 'p');
  }
  query.sql =
      "SELECT tenant, saga_type, saga_id, version, started_at, updated_at, completed_at "
      "FROM docket_sagas" +
      query.where() + " ORDER BY tenant, saga_type, saga_id LIMIT " +
      query.bind(static_cast<std::int64_t>(request.limit) + 1);
  return query;
}

// One row of that SELECT, or a document store's saga, as the listing shows it. Throws
// InvalidInputError for terms no saga can have (a row docket did not write).
inline SagaSummary saga_list_row(std::string_view tenant, std::string_view saga_type,
                                 std::string_view saga_id, std::int64_t version,
                                 std::int64_t started_at, std::int64_t updated_at,
                                 std::optional<std::int64_t> completed_at) {
  SagaSummary summary{.saga = SagaId(TenantId::from_stored(tenant), saga_type, saga_id),
                      .version = version,
                      .status = completed_at ? SagaStatus::kCompleted : SagaStatus::kActive,
                      .started_at = from_micros(started_at),
                      .updated_at = from_micros(updated_at),
                      .completed_at = std::nullopt};
  if (completed_at) {
    summary.completed_at = from_micros(*completed_at);
  }
  return summary;
}

// The page of `rows` (at most limit + 1 of them, in the query's order): the first
// `limit`, and a next position when there was one more.
inline SagaPage saga_list_page(std::vector<SagaSummary> rows, std::size_t limit) {
  SagaPage page;
  if (rows.size() > limit) {
    rows.erase(rows.begin() + static_cast<std::ptrdiff_t>(limit), rows.end());
    page.next = SagaListPosition{.saga = rows.back().saga, .updated_at = rows.back().updated_at};
  }
  page.sagas = std::move(rows);
  return page;
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_SAGA_LISTING_H_
