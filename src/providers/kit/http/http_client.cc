#include "providers/kit/http/http_client.h"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <utility>

#include "docket/core/error.h"

namespace docket::kit::http {
namespace {

std::string_view trim_header_value(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front())) != 0) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())) != 0) {
    text.remove_suffix(1);
  }
  return text;
}

bool is_expect(std::string_view name) {
  return name.size() == 6 && std::equal(name.begin(), name.end(), "expect", [](char a, char b) {
           return std::tolower(static_cast<unsigned char>(a)) == b;
         });
}

size_t append_body(char* data, size_t size, size_t count, void* response) {
  static_cast<HttpResponse*>(response)->body.append(data, size * count);
  return size * count;
}

// Collects the headers of the final response: a status line (a 100 Continue or a new
// response) starts the list over.
size_t append_header(char* data, size_t size, size_t count, void* response) {
  auto& headers = static_cast<HttpResponse*>(response)->headers;
  const std::string_view line(data, size * count);
  if (line.starts_with("HTTP/")) {
    headers.clear();
  } else if (const std::size_t colon = line.find(':'); colon != std::string_view::npos) {
    std::string name(trim_header_value(line.substr(0, colon)));
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    headers.push_back({std::move(name), std::string(trim_header_value(line.substr(colon + 1)))});
  }
  return size * count;
}

void check(CURLcode status, const char* what) {
  if (status != CURLE_OK) {
    throw InfrastructureError(std::string("libcurl refused option ") + what + ": " +
                              curl_easy_strerror(status) +
                              "; the libcurl build lacks a feature docket needs");
  }
}

TransportFailure::Kind failure_kind(CURLcode status) {
  switch (status) {
    case CURLE_COULDNT_RESOLVE_HOST:
    case CURLE_COULDNT_RESOLVE_PROXY:
    case CURLE_COULDNT_CONNECT:
    case CURLE_SSL_CONNECT_ERROR:
      return TransportFailure::Kind::kConnect;
    case CURLE_OPERATION_TIMEDOUT:
      return TransportFailure::Kind::kTimeout;
    default:
      return TransportFailure::Kind::kBroken;
  }
}

}  // namespace

// A handle taken from the pool for one request, given back (reset, its connection
// kept) when the request is done.
class HttpClient::Lease {
 public:
  explicit Lease(const HttpClient& client) : client_(client), handle_(client.checkout()) {}
  ~Lease() { client_.give_back(std::move(handle_)); }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  CURL* native() const noexcept { return handle_.native(); }

 private:
  const HttpClient& client_;
  CurlEasy handle_;
};

HttpClient::HttpClient(std::string_view owner, HttpClientOptions options)
    : owner_(owner), options_(std::move(options)) {
  const std::string& who = owner_;
  if (!options_.ca_file.empty() && !std::ifstream(options_.ca_file).good()) {
    throw ConfigurationError(who + ": the certificate authorities' file '" + options_.ca_file +
                             "' cannot be read; give the path of a PEM file this process may "
                             "read");
  }
  if (options_.connect_timeout.count() <= 0) {
    throw ConfigurationError(who + ": connect_timeout is " +
                             std::to_string(options_.connect_timeout.count()) +
                             " ms; it must be positive");
  }
  if (options_.total_timeout < options_.connect_timeout) {
    throw ConfigurationError(
        who + ": total_timeout (" + std::to_string(options_.total_timeout.count()) +
        " ms) is below connect_timeout (" + std::to_string(options_.connect_timeout.count()) +
        " ms); the total includes connecting, so make it at least as long");
  }
}

CurlEasy HttpClient::checkout() const {
  {
    const std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      CurlEasy handle = std::move(idle_.back());
      idle_.pop_back();
      return handle;
    }
  }
  return CurlEasy();
}

void HttpClient::give_back(CurlEasy handle) const noexcept {
  // Forget the finished request's pointers (its header list and buffers die with it).
  handle.reset();
  const std::lock_guard lock(mutex_);
  if (idle_.size() < options_.max_idle_connections) {
    idle_.push_back(std::move(handle));
  }
}

HttpResult HttpClient::send(const HttpRequest& request) const {
  if (options_.request_count != nullptr) {
    options_.request_count->fetch_add(1, std::memory_order_relaxed);
  }
  const Lease lease(*this);
  CURL* curl = lease.native();
  HttpResponse response;
  char error[CURL_ERROR_SIZE] = {};

  CurlHeaderList headers;
  bool has_expect = false;
  for (const HttpHeader& header : request.headers) {
    // "Name;" is libcurl's way to send a header with an empty value.
    headers.append(header.value.empty() ? header.name + ";" : header.name + ": " + header.value);
    has_expect = has_expect || is_expect(header.name);
  }
  if (!has_expect) {
    // No "Expect: 100-continue" round trip before larger bodies.
    headers.append("Expect:");
  }

  check(curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error), "ERRORBUFFER");
  check(curl_easy_setopt(curl, CURLOPT_URL, request.url.c_str()), "URL");
  check(curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https"), "PROTOCOLS_STR");
  check(curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L), "NOSIGNAL");
  check(curl_easy_setopt(curl, CURLOPT_TCP_KEEPALIVE, 1L), "TCP_KEEPALIVE");
  if (!options_.ca_file.empty()) {
    check(curl_easy_setopt(curl, CURLOPT_CAINFO, options_.ca_file.c_str()), "CAINFO");
  }
  check(curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS,
                         static_cast<long>(options_.connect_timeout.count())),
        "CONNECTTIMEOUT_MS");
  check(
      curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, static_cast<long>(options_.total_timeout.count())),
      "TIMEOUT_MS");
  if (request.method == "GET") {
    check(curl_easy_setopt(curl, CURLOPT_HTTPGET, 1L), "HTTPGET");
  } else {
    if (request.method != "POST") {
      check(curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str()), "CUSTOMREQUEST");
    }
    check(curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.data()), "POSTFIELDS");
    check(curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE,
                           static_cast<curl_off_t>(request.body.size())),
          "POSTFIELDSIZE_LARGE");
  }
  check(curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers.native()), "HTTPHEADER");
  check(curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &append_body), "WRITEFUNCTION");
  check(curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response), "WRITEDATA");
  check(curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, &append_header), "HEADERFUNCTION");
  check(curl_easy_setopt(curl, CURLOPT_HEADERDATA, &response), "HEADERDATA");

  const CURLcode status = curl_easy_perform(curl);
  if (status == CURLE_PEER_FAILED_VERIFICATION || status == CURLE_SSL_CACERT_BADFILE) {
    // Not retried (no attempt could do better), and an InfrastructureError, not a
    // ConfigurationError: it can begin at run time (a certificate replaced, an
    // authority file rotated), and what sent the request should hold its work for
    // later, not drop it.
    throw InfrastructureError(
        owner_ + ": the TLS certificate of " + request.url.substr(0, request.url.find('/', 8)) +
        " is not trusted (" + (error[0] != '\0' ? error : curl_easy_strerror(status)) +
        "); nothing was sent. " +
        (options_.untrusted_advice.empty()
             ? std::string("Trust its certificate authority, or use an endpoint the system's "
                           "certificate authorities vouch for")
             : options_.untrusted_advice));
  }
  if (status != CURLE_OK) {
    long sent = 0;
    curl_easy_getinfo(curl, CURLINFO_REQUEST_SIZE, &sent);
    return TransportFailure{.kind = failure_kind(status),
                            .request_unsent = sent == 0,
                            .detail = error[0] != '\0' ? error : curl_easy_strerror(status)};
  }
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &response.status);
  return response;
}

}  // namespace docket::kit::http
