// The body of a JSON request to a document store's HTTP API. nlohmann::json holds
// strings as raw bytes and checks them only when it writes them: a string that is not
// valid UTF-8 (bytes a caller put in a text field) would otherwise surface as a library
// exception that names neither the request nor what to do.
//
// Thread-safety: a pure function.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_JSON_BODY_H_
#define DOCKET_PROVIDERS_KIT_HTTP_JSON_BODY_H_

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace docket::kit::http {

// `request` written as JSON. Throws InvalidInputError when it holds a string that is
// not valid UTF-8, naming `call` (what the request is, e.g. "DynamoDB PutItem on table
// 'x'") and `remedy` (how to store such bytes instead); nothing is sent.
std::string json_body(const nlohmann::json& request, std::string_view call,
                      std::string_view remedy);

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_JSON_BODY_H_
