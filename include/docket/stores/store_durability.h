// What an acknowledged commit survives on the store a URL names, in one sentence, so that
// a service can state it when it starts (a log line, a health page) as `docket health`
// and `docket chaos` do:
//
//   store_durability("redis://:pw@cache:6379/0")
//     == "cache:6379/0: appendonly yes, appendfsync everysec: a crash of the server can
//         lose up to about a second of acknowledged commits ..."
//
// Read from the server where the provider's durability is a setting of the server
// (Redis: appendonly and appendfsync); nullopt where a commit's durability is the
// provider's own and its documentation states it (SQLite and PostgreSQL commit to disk
// before they answer; DynamoDB, Firestore and Cosmos DB before they acknowledge), and for
// memory:, which keeps nothing past the process.
//
// Throws what opening a store on `url` throws: ConfigurationError for a scheme this build
// has no provider for or a server that refuses the login, InvalidInputError for a URL its
// provider refuses, InfrastructureError for a server that cannot be reached. The URL's
// credentials are never in the sentence.
//
// Thread-safety: safe to call from many threads; each call opens its own connection.
#ifndef DOCKET_STORES_STORE_DURABILITY_H_
#define DOCKET_STORES_STORE_DURABILITY_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket {

std::optional<std::string> store_durability(std::string_view url);

}  // namespace docket

#endif  // DOCKET_STORES_STORE_DURABILITY_H_
