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
#include <variant>
#include <vector>

#include "docket/inbox/checkpoint_store.h"

namespace docket::kit {

struct CheckpointListSql {
  // SELECT tenant, consumer_id, position, <updated_at as Unix microseconds>.
  std::string sql;
  // Names the statement's shape (which filters it has): one prepared statement each.
  std::string shape;
  // In placeholder order: texts, then the row limit.
  std::vector<std::variant<std::string, std::int64_t>> params;
};

// `placeholder` is the provider's numbered parameter sign: '?' (SQLite) or '$'
// (PostgreSQL); `updated_at_micros` the column's value as Unix microseconds in its SQL.
inline CheckpointListSql checkpoint_list_sql(const CheckpointListRequest& request, char placeholder,
                                             std::string_view updated_at_micros) {
  CheckpointListSql out;
  std::string where;
  const auto bind = [&](std::variant<std::string, std::int64_t> value) {
    out.params.push_back(std::move(value));
    return std::string(1, placeholder) + std::to_string(out.params.size());
  };
  const auto condition = [&](const std::string& text, char shape) {
    where += where.empty() ? " WHERE " : " AND ";
    where += text;
    out.shape += shape;
  };
  if (request.tenant) {
    condition("tenant = " + bind(request.tenant->value()), 't');
  }
  if (request.consumer_id) {
    condition("consumer_id = " + bind(*request.consumer_id), 'c');
  }
  if (request.after) {
    const std::string tenant = bind(request.after->tenant.value());
    condition("(tenant, consumer_id) > (" + tenant + ", " + bind(request.after->consumer_id) + ")",
              'p');
  }
  out.sql = "SELECT tenant, consumer_id, position, " + std::string(updated_at_micros) +
            " FROM docket_consumer_checkpoints" + where + " ORDER BY tenant, consumer_id LIMIT " +
            bind(static_cast<std::int64_t>(request.limit) + 1);
  return out;
}

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_CHECKPOINT_STORE_LISTING_H_
