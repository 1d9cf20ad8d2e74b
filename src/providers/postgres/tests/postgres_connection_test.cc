// Opening connections: URL and keyword/value strings, settings passed through, and
// errors that name the server but never the password.
#include <string>

#include "docket/core/error.h"
#include "providers/postgres/postgres_conninfo.h"
#include "providers/postgres/tests/postgres_fixture.h"

namespace docket::postgres::detail {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

// The test URL rewritten as libpq keyword=value pairs.
std::string keyword_value_form(const std::string& url) {
  std::string text;
  for (const auto& [keyword, value] : parse_conninfo(url).settings) {
    text += keyword + "='" + value + "' ";
  }
  return text;
}

class PostgresConnectionTest : public PostgresTest {};

TEST_F(PostgresConnectionTest, ConnectsWithTheUrl) {
  Connection conn(url_);
  EXPECT_TRUE(conn.healthy());
  EXPECT_TRUE(conn.idle());
  EXPECT_GT(conn.backend_pid(), 0);
  EXPECT_EQ(exec(conn, "SELECT current_database()").text(0, 0), "docket");
  EXPECT_THAT(conn.description(), HasSubstr("\"docket\""));
}

TEST_F(PostgresConnectionTest, ConnectsWithKeywordValuePairsAndPassesSettingsThrough) {
  Connection conn(keyword_value_form(url_) + "sslmode=disable application_name=kv_test");
  EXPECT_EQ(PQsslInUse(conn.native()), 0);
  EXPECT_EQ(exec(conn, "SELECT current_setting('application_name')").text(0, 0), "kv_test");
}

TEST_F(PostgresConnectionTest, NamesItselfDocketAndAlwaysTalksUtf8) {
  std::string url = url_ + (url_.find('?') == std::string::npos ? "?" : "&");
  Connection conn(url + "client_encoding=LATIN1");
  EXPECT_EQ(exec(conn, "SELECT current_setting('application_name')").text(0, 0), "docket");
  EXPECT_EQ(exec(conn, "SHOW client_encoding").text(0, 0), "UTF8");
}

// An application's idempotent set-up through docket's connection prints no NOTICE on
// stderr at every start; a WARNING still reaches it.
TEST_F(PostgresConnectionTest, PrintsWarningsButNotNotices) {
  Connection conn(url_);
  exec(conn, "CREATE TEMP TABLE notice_probe (id int)");
  ::testing::internal::CaptureStderr();
  exec(conn, "CREATE TEMP TABLE IF NOT EXISTS notice_probe (id int)");  // NOTICE: ... skipping
  exec(conn, "DO $$ BEGIN RAISE WARNING 'docket-warning-probe'; END $$");
  const std::string printed = ::testing::internal::GetCapturedStderr();
  EXPECT_THAT(printed, Not(HasSubstr("already exists")));
  EXPECT_THAT(printed, HasSubstr("WARNING:  docket-warning-probe"));
}

TEST_F(PostgresConnectionTest, UnreachableServerIsAnInfrastructureErrorWithoutThePassword) {
  for (const std::string conninfo :
       {"postgresql://docket:s3cr3t-pw@127.0.0.1:1/docket",
        "host=127.0.0.1 port=1 dbname=docket user=docket password='s3cr3t pw'"}) {
    try {
      Connection conn(conninfo);
      FAIL() << "connected to port 1";
    } catch (const InfrastructureError& error) {
      EXPECT_THAT(error.what(), HasSubstr("127.0.0.1:1"));
      EXPECT_THAT(error.what(), HasSubstr("\"docket\""));
      EXPECT_THAT(error.what(), Not(HasSubstr("s3cr3t")));
    }
  }
}

TEST_F(PostgresConnectionTest, MalformedStringIsAConfigurationErrorWithoutThePassword) {
  for (const std::string conninfo :
       {"postgresql://docket:s3cr3t%zz@127.0.0.1:5432/docket",
        "postgresql://docket:s3cr3t@127.0.0.1:5432/docket?nosuchoption=s3cr3t",
        "host=127.0.0.1 password=s3cr3t 'unterminated", "just-a-database-name"}) {
    try {
      Connection conn(conninfo);
      FAIL() << "accepted " << conninfo;
    } catch (const ConfigurationError& error) {
      EXPECT_THAT(error.what(), HasSubstr("cannot be parsed"));
      EXPECT_THAT(error.what(), Not(HasSubstr("s3cr3t")));
    }
  }
}

TEST(PostgresConnInfoTest, RedactsRawAndDecodedPasswords) {
  EXPECT_EQ(redact_password("x p%40ss y p@ss", "postgresql://u:p%40ss@h/db"),
            "x ******** y ********");
  EXPECT_EQ(redact_password("it's a b", "host=h password='it\\'s a b'"), "********");
  EXPECT_EQ(redact_password("nothing secret", "host=h"), "nothing secret");
}

// A mistyped scheme makes libpq read the URL as keyword/value text and echo it; the
// password is still redacted (found by tests/fuzz/store_url_fuzz.cc).
TEST(PostgresConnInfoTest, RedactsThePasswordOfAUrlWithAnyScheme) {
  try {
    parse_conninfo("postgresq://app:s3cr3t@db/orders");
    FAIL() << "parsed a URL with a mistyped scheme";
  } catch (const ConfigurationError& error) {
    EXPECT_THAT(error.what(), HasSubstr("postgresq://app:********@db/orders"));
  }
  EXPECT_EQ(redact_password("u:p@ss@h", "x://u:p@ss@h/db"), "u:********@h");
}

}  // namespace
}  // namespace docket::postgres::detail
