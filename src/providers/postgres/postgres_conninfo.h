// Reading a libpq connection string (URL or keyword/value) without ever echoing its
// password: the parsed settings docket connects with, a description for error messages,
// and redaction of the password from any text libpq produced.
//
// Thread-safety: free functions over their arguments only.
#ifndef DOCKET_PROVIDERS_POSTGRES_CONNINFO_H_
#define DOCKET_PROVIDERS_POSTGRES_CONNINFO_H_

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace docket::postgres::detail {

struct ConnInfo {
  // Every setting the string names explicitly, in libpq's keyword order (password
  // included: this is what is passed to PQconnectdbParams, never printed).
  std::vector<std::pair<std::string, std::string>> settings;
  // `database "docket" on 127.0.0.1:55432 as user "docket"`: what error messages show.
  std::string description;
};

// Parses `conninfo` as libpq does (postgresql:// or postgres:// URL, or keyword=value
// pairs; an empty string means libpq's defaults and PG* environment variables).
// Throws ConfigurationError, password redacted, when libpq cannot parse it.
ConnInfo parse_conninfo(std::string_view conninfo);

// `message` with every occurrence of the password written in `conninfo` (raw or
// percent-decoded, also when the string does not parse) replaced by "********".
std::string redact_password(std::string message, std::string_view conninfo);

}  // namespace docket::postgres::detail

#endif  // DOCKET_PROVIDERS_POSTGRES_CONNINFO_H_
