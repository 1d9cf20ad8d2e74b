// Over TLS, against a Cosmos DB test server of the test's own that serves HTTPS with a
// certificate made at its start (scripts/cosmos-start.sh with DOCKET_COSMOS_TLS=1; its
// URL names the certificate with ca=): with the URL's ca= a store works; without it the
// server's certificate is not trusted, and the InfrastructureError says so and what to
// write, at once (no attempt could do better), nothing sent; a ca= file that cannot be read is
// refused when the store opens.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "conformance/eventsourcing/temp_dir.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/stores/open_store.h"
#include "support/loopback_http_server.h"
#include "support/own_server.h"

namespace docket::cosmos::detail {
namespace {

using ::testing::HasSubstr;

TEST(CosmosTls, TheUrlsCertificateFileIsTrustedAndNoOtherIs) {
  const conformance::eventsourcing::TempDir dir;
  const testing::OwnServer server("cosmos", 1, [&](int port) {
    return "DOCKET_COSMOS_TLS=1 DOCKET_COSMOS_DIR=" + dir.file("cosmos-" + std::to_string(port)) +
           " DOCKET_COSMOS_PORT=" + std::to_string(port);
  });
  const std::string& url = server.url();
  ASSERT_THAT(url, HasSubstr("&ca=/"));
  const TenantScope tenant{TenantId("acme")};

  auto trusted = open_checkpoint_store(url);
  trusted->set("billing", "42");
  EXPECT_EQ(trusted->get("billing"), "42");

  auto untrusted = open_checkpoint_store(url.substr(0, url.find("&ca=")));
  const auto started = std::chrono::steady_clock::now();
  try {
    untrusted->get("billing");
    FAIL() << "a certificate no authority of the system vouches for must be refused";
  } catch (const InfrastructureError& error) {
    EXPECT_THAT(error.what(), HasSubstr("is not trusted"));
    EXPECT_THAT(error.what(), HasSubstr("Give the store URL ca=PATH"));
  }
  // Refused at the first answer, not after the retries' backoff.
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(2));

  EXPECT_THROW(open_checkpoint_store(url.substr(0, url.find("&ca=")) + "&ca=/no/such/cert.pem"),
               ConfigurationError);
}

}  // namespace
}  // namespace docket::cosmos::detail
