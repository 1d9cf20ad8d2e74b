// A store URL fit for logs, progress lines and reports: the same URL with any password
// it carries replaced by "***", so that printing where a store lives never prints how
// to log into it.
//
//   printable_store_url("postgresql://app:s3cret@db:5432/orders?sslmode=require")
//     == "postgresql://app:***@db:5432/orders?sslmode=require"
//
// Each provider masks what its URLs can carry: PostgreSQL the password of a
// postgresql:// (or postgres://) URL's user info and of its `password=` query
// parameter. sqlite: and memory: URLs carry none and come back unchanged, unless one
// has a password written into it by mistake (sqlite://user:pw@..., ?password=...),
// which is masked as in any URL; so is either kind of password in a URL whose scheme
// this build has no provider for. Nothing else in the URL is altered or validated.
//
// Thread-safety: a pure function.
#ifndef DOCKET_STORES_PRINTABLE_STORE_URL_H_
#define DOCKET_STORES_PRINTABLE_STORE_URL_H_

#include <string>
#include <string_view>

namespace docket {

std::string printable_store_url(std::string_view url);

}  // namespace docket

#endif  // DOCKET_STORES_PRINTABLE_STORE_URL_H_
