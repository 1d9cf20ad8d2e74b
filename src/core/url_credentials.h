// The password-masked form of a connection URL (scheme://user:password@host/...?
// password=...), for the providers whose URLs carry credentials: what their
// registration prints wherever a store URL is shown (docket/stores/printable_store_url.h).
//
// Thread-safety: a pure function.
#ifndef DOCKET_PROVIDERS_KIT_URL_PASSWORD_H_
#define DOCKET_PROVIDERS_KIT_URL_PASSWORD_H_

#include <string>
#include <string_view>

namespace docket::kit {

// `url` with the password of its user info (between the authority's first ':' and
// its last '@', or, as libpq reads a URL whose authority has no '@', up to the first
// '@' before any '/') and the value of every `password=` query parameter (split on
// '&', '?' and '#') replaced by "***". A URL without "://" or without a password comes
// back unchanged; nothing else is altered or validated. Where a reader could take
// text for a password, it is masked: a URL with a raw '@' in its query may print with
// more masked than its password.
std::string mask_url_passwords(std::string_view url);

// `value`, the value of one query parameter of a URL, as a refusal may quote it: where
// a reader splitting on '?', '#' or '&' would find a `password=` parameter inside it
// ("us-0?password=pw"), that parameter's value is replaced by "***", as
// mask_url_passwords masks it in the whole URL. Any other value comes back unchanged.
std::string mask_parameter_value_passwords(std::string_view value);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_URL_PASSWORD_H_
