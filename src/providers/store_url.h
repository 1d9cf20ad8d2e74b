// The store URLs the factories accept (docket/open_inbox_store.h lists them), parsed
// once for every factory.
//
// Thread-safety: pure function.
#ifndef DOCKET_PROVIDERS_STORE_URL_H_
#define DOCKET_PROVIDERS_STORE_URL_H_

#include <string>
#include <string_view>

namespace docket::providers {

struct StoreUrl {
  enum class Kind { kMemory, kSqlite, kPostgres };
  Kind kind;
  std::string path;  // kSqlite: the file, or ":memory:"; kPostgres: the whole URL
};

// Throws ConfigurationError naming the URL, `what` ("inbox store", "outbox store")
// and the schemes this build supports.
StoreUrl parse_store_url(std::string_view url, std::string_view what);

}  // namespace docket::providers

#endif  // DOCKET_PROVIDERS_STORE_URL_H_
