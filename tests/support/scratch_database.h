// A throwaway database of one provider, for the tests that run on every provider able
// to hold one a child process can open (the tool's commands and benchmarks): a URL
// onto a fresh, empty database, dropped with the object.
//
// Each provider registers how to make one, in its own folder
// (src/providers/<name>/conformance/<name>_scratch_database.cc, listed by
// docket_conformance(tool ...)), with a conformance::FixtureRegistrar of
// ScratchDatabaseCase; the tests take the cases whose provider offers what they need,
// so no test names a provider. Process-local providers (memory) register none.
//
// Thread-safety: construct and destroy on one thread; url() is a constant.
#ifndef DOCKET_TESTS_SUPPORT_SCRATCH_DATABASE_H_
#define DOCKET_TESTS_SUPPORT_SCRATCH_DATABASE_H_

#include <functional>
#include <memory>
#include <ostream>
#include <string>

namespace docket::test_support {

class ScratchDatabase {
 public:
  virtual ~ScratchDatabase() = default;
  // A store URL any process can open onto the database.
  virtual const std::string& url() const = 0;
};

// The scratch database of a provider's test support whose `Database` owns a fresh
// database for its lifetime and has url() (PostgresSchema, DynamoDbTables, ...).
template <class Database>
class UrlScratchDatabase final : public ScratchDatabase {
 public:
  const std::string& url() const override { return database_.url(); }

 private:
  Database database_;
};

struct ScratchDatabaseCase {
  std::string name;      // the test-name suffix: "sqlite"
  std::string provider;  // the provider's registry name: "sqlite"
  std::function<std::unique_ptr<ScratchDatabase>()> make;
};

inline void PrintTo(const ScratchDatabaseCase& scratch, std::ostream* os) {
  *os << scratch.name;
}

}  // namespace docket::test_support

#endif  // DOCKET_TESTS_SUPPORT_SCRATCH_DATABASE_H_
