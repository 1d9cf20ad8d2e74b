// The one rule by which docket masks the credentials a URL can carry, for every provider
// and every transport: what printable_store_url() and printable_transport_url() print
// wherever a URL is shown (refusals, failures, progress lines, reports).
//
// Invariant: every credential of the forms below comes back as "***"; nothing else in
// the URL is altered or validated, and masking a masked URL changes nothing. Where a
// reader could take text for a credential, it is masked: a URL may print with more
// masked than its credentials, never with less.
//   - The password of the user info: "scheme://user:PASSWORD@host".
//   - The user info alone, where the scheme reads it as a credential (a token, as NATS
//     reads "nats://TOKEN@host"; an access token or key pasted where docket refuses user
//     info, as in a DynamoDB or Firestore URL): UserInfoAlone::kCredential.
//   - The value of every query parameter whose name is a credential's (credential_name):
//     password=, secret=, token=, access_token=, aws_secret_access_key=,
//     aws_session_token=, api_key=, X-Amz-Signature=, ..., in any case.
//
// Thread-safety: pure functions.
#ifndef DOCKET_CORE_URL_CREDENTIALS_H_
#define DOCKET_CORE_URL_CREDENTIALS_H_

#include <string>
#include <string_view>
#include <vector>

namespace docket::core {

// How a URL's user info without a ':' ("scheme://text@host") is read.
enum class UserInfoAlone {
  kUserName,    // a user name, printed as it is: postgresql://app@db, amqp://guest@h
  kCredential,  // a token or key, masked: nats://TOKEN@h, or a scheme docket does not know
};

// Whether `name`, a query parameter's name, names a credential: split into words on
// '_', '-' and '.', compared without case, one of its words is password, passwd, pwd,
// pass, secret, token, key, apikey, accesskey, signature, sig, credential(s), jwt,
// seed, nkey, auth or authorization, or the whole name is sslpassword, accesstoken,
// sessiontoken, securitytoken, authtoken, clientsecret or secretaccesskey. "mypassword"
// and "sslkey" (libpq's path of a key file) are not.
bool credential_name(std::string_view name);

// `url` with every credential masked as the rule above says. A URL without "://" comes
// back unchanged. User info ends at the authority's last '@' (a password may contain a
// percent-encoded '@' but never a raw one before the host); with no '@' in the
// authority, as libpq reads it, at the last '@' before the first '/'
// ("postgresql://u?x:pw@host" has the password "pw"). Query parameters are split on
// '&' and, as a reader may also split them, on a further '?' or a '#' (libpq knows no
// fragment and reads "?a=1#x&password=pw" as the password "pw").
std::string mask_url_credentials(std::string_view url,
                                 UserInfoAlone alone = UserInfoAlone::kUserName);

// The credentials of `url` as mask_url_credentials finds them, in order: the text each
// "***" stands for. For a caller that must keep them out of text it did not compose
// (docket's tool scrubs those of the URLs on its command line from what it prints).
std::vector<std::string> url_credentials(std::string_view url,
                                         UserInfoAlone alone = UserInfoAlone::kUserName);

// `value`, the value of one query parameter, as a refusal may quote it: where a reader
// splitting on '?', '#' or '&' would find a credential parameter inside it
// ("us-0?secret=s"), that parameter's value is masked as mask_url_credentials masks it
// in the whole URL. Any other value comes back unchanged.
std::string mask_parameter_value_credentials(std::string_view value);

}  // namespace docket::core

#endif  // DOCKET_CORE_URL_CREDENTIALS_H_
