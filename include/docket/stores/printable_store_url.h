// A store URL fit for logs, progress lines and reports: the same URL with every
// credential it carries replaced by "***", so that printing where a store lives never
// prints how to log into it.
//
//   printable_store_url("postgresql://app:s3cret@db:5432/orders?sslmode=require")
//     == "postgresql://app:***@db:5432/orders?sslmode=require"
//
// One rule masks, for every provider: the password of a URL's user info, the value of
// every query parameter named as a credential (password=, secret=, token=,
// access_token=, aws_secret_access_key=, aws_session_token=, api_key=, ..., in any
// case), and user info alone where the scheme could read it as a token (a DynamoDB or
// Firestore URL, which refuse user info, and a scheme this build has no provider for;
// PostgreSQL reads it as a user name and prints it). sqlite: and memory: URLs carry
// none and come back unchanged unless one is written into them by mistake. Nothing
// else in the URL is altered or validated.
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
