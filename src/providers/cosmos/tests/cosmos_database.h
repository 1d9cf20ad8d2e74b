// Where tests find the Cosmos DB test server (scripts/cosmos-start.sh: @vercel/cosmosdb-
// server with docket's patch) and a database of one's own on it, so that tests in parallel
// ctest processes never see each other's items: url() is DOCKET_TEST_COSMOS_URL with a
// database name no other process or earlier call uses. The database is deleted on
// construction (a leftover of a crashed run) and on destruction.
//
// A test that needs the server fails, never skips, when DOCKET_TEST_COSMOS_URL is missing:
// a suite that silently ran nothing would look like a pass.
//
// Thread-safety: construct and destroy on one thread; url() is a constant.
#ifndef DOCKET_PROVIDERS_COSMOS_TESTS_COSMOS_DATABASE_H_
#define DOCKET_PROVIDERS_COSMOS_TESTS_COSMOS_DATABASE_H_

#include <string>
#include <string_view>

namespace docket::test_support {

inline constexpr std::string_view kCosmosUrlVariable = "DOCKET_TEST_COSMOS_URL";

// The value of DOCKET_TEST_COSMOS_URL. Throws std::runtime_error, which fails the calling
// test, saying how to start the server when it is unset or empty.
std::string cosmos_test_url();

// `url` with its database= parameter's value replaced by `database`.
std::string cosmos_url_with_database(std::string_view url, std::string_view database);

class CosmosDatabase {
 public:
  CosmosDatabase();
  ~CosmosDatabase();
  CosmosDatabase(const CosmosDatabase&) = delete;
  CosmosDatabase& operator=(const CosmosDatabase&) = delete;

  const std::string& url() const noexcept { return url_; }
  const std::string& name() const noexcept { return name_; }

  // Deletes the database with every container in it (nothing when it is absent).
  void drop() const;

 private:
  std::string name_;
  std::string url_;
};

}  // namespace docket::test_support

#endif  // DOCKET_PROVIDERS_COSMOS_TESTS_COSMOS_DATABASE_H_
