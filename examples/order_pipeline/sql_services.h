// The order services on SQLite and PostgreSQL: an orders table and an invoices table
// with a generated key (no unique constraint on order_id), written through the unit of
// work's sqlite::Transaction / postgres::Transaction.
//
// Thread-safety: as OrderServices; the store it opens for set-up and counting is used
// by one call at a time.
#ifndef DOCKET_EXAMPLES_ORDER_PIPELINE_SQL_SERVICES_H_
#define DOCKET_EXAMPLES_ORDER_PIPELINE_SQL_SERVICES_H_

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "docket/inbox/inbox_store.h"
#include "order_services.h"

namespace docket::examples {

// The services on `url`. A store whose transaction is neither SQLite's nor
// PostgreSQL's is refused at its first write (create_tables()) with a
// ConfigurationError that names the stores the demo runs on, `other_stores` (the
// example URLs of the providers with services of their own, joined) among them.
std::unique_ptr<OrderServices> open_sql_services(std::string_view url, std::string other_stores);

// The rows of `table` (one of docket's own, e.g. docket_outbox) on the SQLite or
// PostgreSQL store `store`, read through a unit of work of its own; nullopt when the
// store is neither.
std::optional<std::int64_t> sql_row_count(InboxStore& store, std::string_view table);

}  // namespace docket::examples

#endif  // DOCKET_EXAMPLES_ORDER_PIPELINE_SQL_SERVICES_H_
