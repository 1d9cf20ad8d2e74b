// What an HttpClient sends and what comes back: a request, a response, or the
// transport failure that left no response.
//
// Thread-safety: plain values.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_HTTP_MESSAGE_H_
#define DOCKET_PROVIDERS_KIT_HTTP_HTTP_MESSAGE_H_

#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace docket::kit::http {

struct HttpHeader {
  std::string name{};
  std::string value{};
};

struct HttpRequest {
  std::string method = "POST";
  std::string url{};  // "http://127.0.0.1:8000/", "https://dynamodb.eu-west-1.amazonaws.com/"
  // Sent as given, in order. The client adds none of its own beyond what HTTP needs
  // (Content-Length); a Host header given here replaces the one derived from `url`.
  std::vector<HttpHeader> headers{};
  std::string body{};
};

struct HttpResponse {
  long status = 0;
  // Names lower-cased, values trimmed, in the order received (final response only).
  std::vector<HttpHeader> headers{};
  std::string body{};

  // The first header named `lower_case_name`, or "" when there is none.
  std::string_view header(std::string_view lower_case_name) const noexcept {
    for (const HttpHeader& h : headers) {
      if (h.name == lower_case_name) {
        return h.value;
      }
    }
    return {};
  }
};

// No response: the connection could not be made, timed out, or broke.
struct TransportFailure {
  enum class Kind {
    kConnect,  // refused, unreachable, name not resolved, TLS handshake failed
    kTimeout,  // the connect or total timeout passed
    kBroken,   // the connection failed while the request or response was under way
  };
  Kind kind = Kind::kBroken;
  // True when not one byte of the request reached the connection: the server cannot
  // have acted on it, so sending it again cannot apply it twice.
  bool request_unsent = false;
  // libcurl's explanation ("Failed to connect to 127.0.0.1 port 1: Connection refused").
  std::string detail{};
};

// Either a response (any status) or a transport failure.
using HttpResult = std::variant<HttpResponse, TransportFailure>;

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_HTTP_MESSAGE_H_
