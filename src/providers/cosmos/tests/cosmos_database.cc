#include "providers/cosmos/tests/cosmos_database.h"

#include <cstdlib>
#include <stdexcept>

#include "providers/cosmos/cosmos_client.h"
#include "support/unique_name.h"

namespace docket::test_support {

std::string cosmos_test_url() {
  const char* url = std::getenv(std::string(kCosmosUrlVariable).c_str());
  if (url == nullptr || *url == '\0') {
    throw std::runtime_error(
        std::string(kCosmosUrlVariable) +
        " is not set, and this test needs a real Cosmos DB server (the test server "
        "@vercel/cosmosdb-server with docket's patch, Node 18 or later). Start the throwaway "
        "one and export its URL:\n"
        "  export DOCKET_TEST_COSMOS_URL=$(scripts/cosmos-start.sh)\n"
        "(scripts/cosmos-stop.sh stops it; scripts/test.sh does both by itself)");
  }
  return url;
}

std::string cosmos_url_with_database(std::string_view url, std::string_view database) {
  std::string out(url);
  const std::size_t at = out.find("database=");
  if (at == std::string::npos) {
    throw std::runtime_error("the Cosmos DB test URL names no database=: " + out);
  }
  const std::size_t start = at + std::string_view("database=").size();
  const std::size_t end = out.find('&', start);
  out.replace(start, end == std::string::npos ? std::string::npos : end - start, database);
  return out;
}

CosmosDatabase::CosmosDatabase()
    : name_("docket-" + unique_suffix()), url_(cosmos_url_with_database(cosmos_test_url(), name_)) {
  drop();
}

CosmosDatabase::~CosmosDatabase() {
  try {
    drop();
  } catch (...) {  // a destructor cannot fail the test; the server is in memory anyway
  }
}

void CosmosDatabase::drop() const {
  const cosmos::detail::Client client(cosmos::detail::parse_store_url(url_));
  const cosmos::detail::Request request{.what = "drop of a test database",
                                        .method = "DELETE",
                                        .resource_type = "dbs",
                                        .resource_link = "dbs/" + name_,
                                        .path = "/dbs/" + name_,
                                        .replay = cosmos::detail::Replay::kSafe};
  const cosmos::detail::Response response = client.send(request);
  if (response.status != 204 && response.status != 404) {
    client.fail(request, response);
  }
}

}  // namespace docket::test_support
