// What the relational providers' listings (kit/checkpoint_store_listing.h,
// kit/saga_listing.h) share: a statement built filter by filter, each value bound to
// the next numbered placeholder ('?' on SQLite, '$' on PostgreSQL) and each filter
// recorded in `shape`, so that the statements of one shape share one prepared
// statement.
//
//   SqlListingQuery query('$');
//   query.add("tenant = " + query.bind(tenant), 't');
//   query.sql = "SELECT ... FROM t" + query.where() + " LIMIT " + query.bind(limit);
//
// Thread-safety: a value of one thread.
#ifndef DOCKET_PROVIDERS_KIT_SQL_LISTING_QUERY_H_
#define DOCKET_PROVIDERS_KIT_SQL_LISTING_QUERY_H_

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace docket::kit {

using SqlListingParam = std::variant<std::string, std::int64_t>;

struct SqlListingQuery {
  explicit SqlListingQuery(char placeholder_sign) : placeholder(placeholder_sign) {}

  // Appends `value` to `params` and returns its placeholder.
  std::string bind(SqlListingParam value) {
    params.push_back(std::move(value));
    return std::string(1, placeholder) + std::to_string(params.size());
  }
  // ANDs `condition` to the WHERE clause and notes `shape_letter` in `shape`.
  void add(const std::string& condition, char shape_letter) {
    where_clause += where_clause.empty() ? " WHERE " : " AND ";
    where_clause += condition;
    shape += shape_letter;
  }
  // " WHERE a AND b", or empty without a condition.
  const std::string& where() const noexcept { return where_clause; }

  char placeholder;
  std::string sql;                      // set by the listing once its conditions are added
  std::string shape;                    // one letter a condition: names the prepared statement
  std::vector<SqlListingParam> params;  // in placeholder order

 private:
  std::string where_clause;
};

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_SQL_LISTING_QUERY_H_
