#include "providers/postgres/tests/postgres_schema.h"

#include "providers/postgres/postgres_connection.h"
#include "providers/postgres/postgres_exec.h"
#include "providers/postgres/tests/postgres_env.h"
#include "support/unique_name.h"

namespace docket::test_support {

PostgresSchema::PostgresSchema()
    : server_url_(postgres_test_url()), name_(unique_name("docket_conformance")) {
  postgres::detail::Connection admin(server_url_);
  postgres::detail::exec_script(admin, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS " +
                                           name_ + " CASCADE; CREATE SCHEMA " + name_);
  // '=' inside a URL parameter value is percent-encoded: %3D.
  url_ = server_url_ + (server_url_.find('?') == std::string::npos ? "?" : "&") +
         "options=-csearch_path%3D" + name_;
}

PostgresSchema::~PostgresSchema() {
  try {
    postgres::detail::Connection admin(server_url_);
    postgres::detail::exec_script(
        admin, "SET client_min_messages = warning; DROP SCHEMA IF EXISTS " + name_ + " CASCADE");
  } catch (...) {  // a destructor cannot fail the test; the next run replaces the schema
  }
}

}  // namespace docket::test_support
