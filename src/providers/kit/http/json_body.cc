#include "providers/kit/http/json_body.h"

#include <string>
#include <string_view>

#include "docket/core/error.h"

namespace docket::kit::http {

std::string json_body(const nlohmann::json& request, std::string_view call,
                      std::string_view remedy) {
  try {
    return request.dump();
  } catch (const nlohmann::json::type_error& e) {
    throw InvalidInputError(std::string(call) +
                            ": the request holds a string that is not valid UTF-8 (" + e.what() +
                            "); " + std::string(remedy));
  }
}

}  // namespace docket::kit::http
