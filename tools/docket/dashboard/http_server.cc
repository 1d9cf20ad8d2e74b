#include "dashboard/http_server.h"

#include <civetweb.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <exception>
#include <mutex>

#include "core/url_text.h"
#include "docket/core/error.h"

namespace docket::tool {

// civetweb's global state, set up once while any server lives.
struct HttpServer::Library {
  Library() { mg_init_library(0); }
  ~Library() { mg_exit_library(); }
  Library(const Library&) = delete;
  Library& operator=(const Library&) = delete;

  static std::shared_ptr<Library> acquire() {
    static std::mutex mutex;
    static std::weak_ptr<Library> current;
    const std::lock_guard lock(mutex);
    std::shared_ptr<Library> library = current.lock();
    if (!library) {
      library = std::make_shared<Library>();
      current = library;
    }
    return library;
  }
};

void HttpServer::ContextDeleter::operator()(mg_context* context) const {
  mg_stop(context);
}

namespace {

std::string http_lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

void http_write(mg_connection* connection, const HttpResponse& response) {
  std::string head = "HTTP/1.1 " + std::to_string(response.status) + " " +
                     mg_get_response_code_text(connection, response.status) + "\r\n" +
                     "Content-Type: " + response.content_type + "\r\n" +
                     "Content-Length: " + std::to_string(response.body.size()) + "\r\n" +
                     "Connection: close\r\n";
  for (const auto& [name, value] : response.headers) {
    head += name + ": " + value + "\r\n";
  }
  head += "\r\n";
  mg_write(connection, head.data(), head.size());
  if (!response.body.empty()) {
    mg_write(connection, response.body.data(), response.body.size());
  }
}

}  // namespace

std::optional<std::string> HttpRequest::header(const std::string& name) const {
  const auto found = headers.find(name);
  return found == headers.end() ? std::nullopt : std::optional(found->second);
}

std::optional<std::string> HttpRequest::cookie(const std::string& name) const {
  const std::optional<std::string> line = header("cookie");
  if (!line) {
    return std::nullopt;
  }
  std::array<char, 512> value{};
  if (mg_get_cookie(line->c_str(), name.c_str(), value.data(), value.size()) < 0) {
    return std::nullopt;
  }
  return std::string(value.data());
}

std::optional<std::string> HttpRequest::query_parameter(const std::string& name) const {
  std::string_view rest = query;
  while (!rest.empty()) {
    const std::size_t amp = rest.find('&');
    const std::string_view pair = rest.substr(0, amp);
    rest = amp == std::string_view::npos ? std::string_view() : rest.substr(amp + 1);
    const std::size_t equals = pair.find('=');
    if (core::percent_decoded_leniently(pair.substr(0, equals), /*plus_as_space=*/true) == name) {
      return equals == std::string_view::npos
                 ? std::string()
                 : core::percent_decoded_leniently(pair.substr(equals + 1), /*plus_as_space=*/true);
    }
  }
  return std::nullopt;
}

HttpServer::HttpServer(const ListenAddress& listen, int threads, HttpHandler handler)
    : library_(Library::acquire()), handler_(std::move(handler)) {
  const std::string address = listen.host + ":" + std::to_string(listen.port);
  if (listen.host.starts_with('[') && mg_check_feature(MG_FEATURES_IPV6) == 0) {
    throw ConfigurationError("cannot listen on " + address +
                             ": the HTTP server library (civetweb) of this machine was built "
                             "without IPv6; pass an IPv4 address, e.g. --listen 127.0.0.1:" +
                             std::to_string(listen.port));
  }
  const std::string thread_count = std::to_string(threads);
  // No document_root: civetweb serves no file of its own. Requests are read within 10 s.
  const char* options[] = {"listening_ports",
                           address.c_str(),
                           "num_threads",
                           thread_count.c_str(),
                           "request_timeout_ms",
                           "10000",
                           "enable_keep_alive",
                           "no",
                           nullptr};
  mg_callbacks callbacks{};
  // civetweb's own log lines would reach stderr from its threads, past the credential
  // filter; the handler's answers say what went wrong instead.
  callbacks.log_message = [](const mg_connection*, const char*) { return 1; };
  mg_init_data init{};
  init.callbacks = &callbacks;
  init.user_data = this;
  init.configuration_options = options;
  std::array<char, 256> error_text{};
  unsigned error_code = 0;
  mg_error_data error{};
  error.code = &error_code;
  error.text = error_text.data();
  error.text_buffer_size = error_text.size();
  context_.reset(mg_start2(&init, &error));
  if (!context_) {
    // civetweb says only that it failed ("Failed to setup server ports"): a bind of our
    // own names the cause.
    const std::optional<std::string> cause = why_cannot_listen(listen);
    throw InfrastructureError("cannot listen on " + address + ": " +
                              cause.value_or(std::string(error_text.data())) +
                              "; pass another --listen");
  }
  std::array<mg_server_port, 4> ports{};
  const int count =
      mg_get_server_ports(context_.get(), static_cast<int>(ports.size()), ports.data());
  port_ = count > 0 ? ports[0].port : listen.port;
  mg_set_request_handler(context_.get(), "/", &HttpServer::dispatch, this);
}

HttpServer::~HttpServer() = default;

int HttpServer::dispatch(mg_connection* connection, void* server) {
  const mg_request_info* info = mg_get_request_info(connection);
  HttpRequest request;
  request.method = info->request_method ? info->request_method : "";
  request.path = info->local_uri ? info->local_uri : "/";
  request.query = info->query_string ? info->query_string : "";
  for (int i = 0; i < info->num_headers; ++i) {
    request.headers[http_lower(info->http_headers[i].name)] = info->http_headers[i].value;
  }
  HttpResponse response;
  if (info->content_length > static_cast<long long>(kMaxRequestBody)) {
    response = {.status = 413, .body = R"({"error":"the request body is too large"})"};
    http_write(connection, response);
    return 1;
  }
  std::array<char, 4096> chunk{};
  while (request.body.size() <= kMaxRequestBody) {
    const int read = mg_read(connection, chunk.data(), chunk.size());
    if (read <= 0) {
      break;
    }
    request.body.append(chunk.data(), static_cast<std::size_t>(read));
  }
  if (request.body.size() > kMaxRequestBody) {
    response = {.status = 413, .body = R"({"error":"the request body is too large"})"};
  } else {
    try {
      response = static_cast<HttpServer*>(server)->handler_(request);
    } catch (const std::exception&) {
      // The handler answers every error of its own; this is a last net, never an abort
      // of the server's thread.
      response = {.status = 500, .body = R"({"error":"the dashboard failed to answer"})"};
    }
  }
  http_write(connection, response);
  return 1;
}

}  // namespace docket::tool
