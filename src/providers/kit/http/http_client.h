// HttpClient: one server's HTTP client for the document providers, on libcurl.
//
// Connections are reused: the client keeps up to max_idle_connections easy handles,
// each holding its connection open between requests; a request takes an idle handle
// (or makes one) and gives it back when done. So N threads sending at once use N
// connections, and a single thread reuses one.
//
// Every request has a connect timeout and a total timeout, so a server that is down
// or stops answering yields a TransportFailure within them, never a hang. Nothing is
// retried here: the caller decides what may be sent again (retry_policy.h). A server
// whose TLS certificate is not trusted (or a ca_file that does not load) is an
// InfrastructureError at once, naming what to do: no attempt could do better.
//
// Thread-safety: send() may be called from many threads at once; the pool of idle
// handles is guarded by a mutex, and each handle serves one request at a time.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_HTTP_CLIENT_H_
#define DOCKET_PROVIDERS_KIT_HTTP_HTTP_CLIENT_H_

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "providers/kit/http/curl_easy.h"
#include "providers/kit/http/http_message.h"
#include "providers/kit/http/request_count.h"

namespace docket::kit::http {

struct HttpClientOptions {
  // Time to establish a TCP (and TLS) connection.
  std::chrono::milliseconds connect_timeout{3000};
  // Time for the whole request, connecting included.
  std::chrono::milliseconds total_timeout{15000};
  // Idle connections kept open for reuse; 0 closes each after its request.
  std::size_t max_idle_connections = 8;
  // Where each request sent is counted (request_count.h); nullptr counts it nowhere.
  std::atomic<std::uint64_t>* request_count = &docket_requests();
  // A PEM file of the certificate authorities to trust for https:// instead of the
  // system's (a test server's own certificate, a private authority); empty: the system's.
  std::string ca_file{};
  // What to do about a server certificate that is not trusted, ending that error's
  // message ("give the store URL ca=PATH ..."); empty: the generic advice.
  std::string untrusted_advice{};
};

class HttpClient {
 public:
  // Throws ConfigurationError naming `owner` ("DynamoDB client") and the setting when a
  // timeout is not positive, the total timeout is below the connect timeout, or ca_file
  // cannot be read.
  explicit HttpClient(std::string_view owner, HttpClientOptions options = {});

  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Sends `request` once and returns the response, whatever its status, or the
  // transport failure. Throws InfrastructureError when the server's TLS certificate is
  // not trusted (nothing was sent) or when libcurl itself cannot be set up (out of
  // memory).
  HttpResult send(const HttpRequest& request) const;

  const HttpClientOptions& options() const noexcept { return options_; }

 private:
  class Lease;

  CurlEasy checkout() const;
  void give_back(CurlEasy handle) const noexcept;

  std::string owner_;
  HttpClientOptions options_;
  mutable std::mutex mutex_;
  mutable std::vector<CurlEasy> idle_;
};

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_HTTP_CLIENT_H_
