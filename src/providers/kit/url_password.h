// The password-masked form of a connection URL (scheme://user:password@host/...?
// password=...), for the providers whose URLs carry credentials: what their
// registration prints wherever a store URL is shown (docket/printable_store_url.h).
//
// Thread-safety: a pure function.
#ifndef DOCKET_PROVIDERS_KIT_URL_PASSWORD_H_
#define DOCKET_PROVIDERS_KIT_URL_PASSWORD_H_

#include <string>
#include <string_view>

namespace docket::kit {

// `url` with the password of its user info (between the authority's first ':' and
// its last '@') and the value of every `password=` query parameter replaced by "***".
// A URL without "://" or without a password comes back unchanged; nothing else is
// altered or validated.
std::string mask_url_passwords(std::string_view url);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_URL_PASSWORD_H_
