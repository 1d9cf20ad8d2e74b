// An HTTP server on one address, over civetweb (Debian's libcivetweb-dev, its C API),
// that hands every request to one function and writes back what it returns. The only
// file of the tool that names civetweb: the dashboard's routes, security and API see
// HttpRequest and HttpResponse alone.
//
// Invariants: a constructed HttpServer is listening (construction throws otherwise);
// destroying it stops the listener and waits for every request in flight to end, so the
// handler is never called after the destructor returns. civetweb serves no files and
// runs no scripts of its own (no document_root): everything comes from the handler.
// Request bodies above kMaxRequestBody bytes are refused with 413 before the handler.
//
// Thread-safety: the handler runs on civetweb's worker threads, several at once; it
// must be safe for that. Construct and destroy the server on one thread.
#ifndef DOCKET_TOOLS_DOCKET_DASHBOARD_HTTP_SERVER_H_
#define DOCKET_TOOLS_DOCKET_DASHBOARD_HTTP_SERVER_H_

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "listen_address.h"

struct mg_context;
struct mg_connection;

namespace docket::tool {

// The largest request body read (the dashboard's actions send a few hundred bytes).
inline constexpr std::size_t kMaxRequestBody = 64 * 1024;

struct HttpRequest {
  std::string method;                          // "GET", "POST", ...
  std::string path;                            // URL-decoded, without the query
  std::string query;                           // raw, after '?' ("" when none)
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;

  // The header `name` (lower case), or nullopt.
  std::optional<std::string> header(const std::string& name) const;
  // The cookie `name` of the Cookie header, or nullopt.
  std::optional<std::string> cookie(const std::string& name) const;
  // The query parameter `name`, percent-decoded, or nullopt.
  std::optional<std::string> query_parameter(const std::string& name) const;
};

struct HttpResponse {
  int status = 200;
  std::string content_type = "application/json; charset=utf-8";
  std::string body{};
  std::vector<std::pair<std::string, std::string>> headers{};  // extra headers
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

class HttpServer {
 public:
  // Listens on `address` (port 0: any free port, port() says which) with `threads`
  // workers. Throws InfrastructureError naming the address and why it cannot listen
  // there (the port is in use, the address is not this machine's), ConfigurationError
  // for an IPv6 address when civetweb was built without IPv6 (Debian 12's is).
  HttpServer(const ListenAddress& address, int threads, HttpHandler handler);
  ~HttpServer();
  HttpServer(const HttpServer&) = delete;
  HttpServer& operator=(const HttpServer&) = delete;

  // The port listened on.
  int port() const { return port_; }

 private:
  struct Library;  // mg_init_library / mg_exit_library
  struct ContextDeleter {
    void operator()(mg_context* context) const;
  };
  static int dispatch(mg_connection* connection, void* server);

  std::shared_ptr<Library> library_;
  HttpHandler handler_;
  std::unique_ptr<mg_context, ContextDeleter> context_;
  int port_ = 0;
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_DASHBOARD_HTTP_SERVER_H_
