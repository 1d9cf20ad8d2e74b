// A throwaway SQLite database for the tests that run on every provider
// (tests/support/scratch_database.h): a file in a temporary directory of its own.
#include "conformance/eventsourcing/temp_dir.h"
#include "conformance/fixture_registry.h"
#include "support/scratch_database.h"

namespace docket::test_support {
namespace {

class SqliteScratchDatabase final : public ScratchDatabase {
 public:
  const std::string& url() const override { return url_; }

 private:
  conformance::eventsourcing::TempDir dir_;
  std::string url_ = "sqlite://" + dir_.file("scratch.db");
};

const conformance::FixtureRegistrar<ScratchDatabaseCase> kSqliteScratchDatabase{
    {.name = "sqlite", .provider = "sqlite", .make = [] {
       return std::unique_ptr<ScratchDatabase>(std::make_unique<SqliteScratchDatabase>());
     }}};

}  // namespace
}  // namespace docket::test_support
