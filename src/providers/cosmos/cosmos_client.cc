#include "providers/cosmos/cosmos_client.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <utility>
#include <variant>

#include "core/url_text.h"
#include "docket/core/error.h"
#include "docket/keys/term_codec.h"
#include "providers/kit/http/transport_failure_text.h"

namespace docket::cosmos::detail {
namespace {

using kit::http::HttpResponse;
using kit::http::TransportFailure;

// Longest wait a 429's x-ms-retry-after-ms is granted at once.
constexpr std::chrono::microseconds kMaxThrottleWait{5'000'000};

std::string connect_advice(const StoreUrl& url) {
  return url.endpoint.starts_with("http://")
             ? "Is the server running there? Check host and port in the store URL "
               "(scripts/cosmos-start.sh starts the test server)."
             : "Check the network path to the account's endpoint and that its certificate "
               "is one the system's certificate authorities vouch for.";
}

// The service's message in an error answer ({"code": ..., "message": ...}), else the body.
std::string service_message(const Response& response) {
  if (response.body.is_object()) {
    const auto message = response.body.find("message");
    if (message != response.body.end() && message->is_string()) {
      return message->get<std::string>().substr(0, 500);
    }
  }
  return response.body.is_null() ? std::string("no body") : response.body.dump().substr(0, 500);
}

double parse_charge(std::string_view text) {
  try {
    const double charge = std::stod(std::string(text));
    return std::isfinite(charge) && charge > 0 ? charge : 0;
  } catch (const std::exception&) {
    return 0;
  }
}

Response response_of(HttpResponse http) {
  Response response{.status = http.status,
                    .etag = std::string(http.header("etag")),
                    .continuation = std::string(http.header("x-ms-continuation")),
                    .request_charge = parse_charge(http.header("x-ms-request-charge"))};
  if (const auto substatus = core::whole_number(http.header("x-ms-substatus"))) {
    response.substatus = static_cast<int>(std::min<std::uint64_t>(*substatus, 1'000'000));
  }
  if (const auto ms = core::whole_number(http.header("x-ms-retry-after-ms"))) {
    response.retry_after = std::chrono::milliseconds(std::min<std::uint64_t>(*ms, 60'000));
  }
  if (!http.body.empty()) {
    response.body = nlohmann::json::parse(http.body, nullptr, /*allow_exceptions=*/false);
  }
  return response;
}

bool server_failure(long status) {
  return status == 408 || status == 500 || status == 503;
}

}  // namespace

std::string partition_key_header(std::string_view value) {
  // ASCII only, non-ASCII characters as \uXXXX escapes, as the service's SDKs send it: an
  // HTTP header carries no UTF-8 that every server reads as such.
  return nlohmann::json::array({std::string(value)}).dump(-1, ' ', /*ensure_ascii=*/true);
}

namespace {

// The HTTP options with the URL's certificate authorities (ca=) and, for a certificate
// they do not vouch for, what to write in the URL.
kit::http::HttpClientOptions http_options(const StoreUrl& url, kit::http::HttpClientOptions http) {
  http.ca_file = url.ca_file;
  http.untrusted_advice =
      "Give the store URL ca=PATH, the PEM file of the authority that signed the server's "
      "certificate (for the test server, the cert.pem scripts/cosmos-start.sh makes with "
      "DOCKET_COSMOS_TLS=1), or use an endpoint the system's certificate authorities vouch "
      "for";
  return http;
}

}  // namespace

Client::Client(StoreUrl url, const ClientOptions& options)
    : url_(std::move(url)),
      http_("Cosmos DB client", http_options(url_, options.http)),
      retry_("Cosmos DB client", options.retry),
      process_milli_request_units_(options.milli_request_units) {}

std::string Client::container_link(std::string_view container) const {
  return "dbs/" + url_.database + "/colls/" + std::string(container);
}

std::string Client::item_link(std::string_view container, std::string_view id) const {
  return container_link(container) + "/docs/" + std::string(id);
}

std::string Client::item_path(std::string_view container, std::string_view id) const {
  std::string path = "/" + container_link(container) + "/docs/";
  keys::append_percent_encoded(id, path);
  return path;
}

double Client::request_units() const noexcept {
  return static_cast<double>(milli_request_units_.load(std::memory_order_relaxed)) / 1000.0;
}

kit::http::HttpRequest Client::http_request(const Request& request) const {
  const std::string date = kit::http::cosmos_http_date(std::chrono::system_clock::now());
  kit::http::HttpRequest http{
      .method = std::string(request.method),
      .url = url_.endpoint + request.path,
      .headers = {{"x-ms-date", date},
                  {"x-ms-version", std::string(kApiVersion)},
                  {"Authorization", url_.key.authorization({.verb = request.method,
                                                            .resource_type = request.resource_type,
                                                            .resource_link = request.resource_link,
                                                            .date = date})},
                  {"Accept", "application/json"}},
      .body = request.body};
  bool typed = false;
  for (const kit::http::HttpHeader& header : request.headers) {
    typed = typed || header.name == "Content-Type";
    http.headers.push_back(header);
  }
  if (!typed && !request.body.empty()) {
    http.headers.push_back({"Content-Type", "application/json"});
  }
  return http;
}

Response Client::send(const Request& request) const {
  const bool safe = request.replay == Replay::kSafe;
  const std::string token = kit::http::RetryPolicy::random_token();
  const int max_attempts = retry_.options().max_attempts;
  for (int attempt = 1;; ++attempt) {
    kit::http::HttpResult result = http_.send(http_request(request));
    if (const auto* failure = std::get_if<TransportFailure>(&result)) {
      if (attempt < max_attempts && (failure->request_unsent || safe)) {
        std::this_thread::sleep_for(retry_.delay(attempt, token));
        continue;
      }
      throw InfrastructureError("Cosmos DB " + std::string(request.what) + " at " + url_.printable +
                                " failed after " + kit::http::attempts_text(attempt) + ": " +
                                kit::http::describe_transport_failure(*failure, url_.endpoint,
                                                                      connect_advice(url_), safe));
    }
    Response response = response_of(std::get<HttpResponse>(std::move(result)));
    // Rounded to the nearest thousandth, so that charges like 5.71 add up exactly.
    const auto milli = static_cast<std::uint64_t>(std::llround(response.request_charge * 1000));
    milli_request_units_.fetch_add(milli, std::memory_order_relaxed);
    if (process_milli_request_units_ != nullptr) {
      process_milli_request_units_->fetch_add(milli, std::memory_order_relaxed);
    }
    const bool throttled = response.status == 429 || response.status == 449;
    if (attempt < max_attempts && (throttled || (safe && server_failure(response.status)))) {
      // A 429 waits what the service asks; without a readable ask, the backoff.
      std::chrono::microseconds wait = retry_.delay(attempt, token);
      if (response.status == 429 && response.retry_after.count() > 0) {
        wait = std::min(response.retry_after, kMaxThrottleWait);
      }
      std::this_thread::sleep_for(wait);
      continue;
    }
    if (response.status == 401) {
      throw ConfigurationError(
          "Cosmos DB " + std::string(request.what) + " at " + url_.printable +
          " was refused as unauthorized (HTTP 401: " + service_message(response) +
          "): the key= of the store URL is not a master key of this account (a wrong or "
          "rotated key, or one copied in part); give the account's primary or secondary key "
          "as the portal shows it, percent-encoded (+ / = as %2B %2F %3D). Nothing was "
          "written.");
    }
    if (response.status == 403) {
      throw ConfigurationError(
          "Cosmos DB " + std::string(request.what) + " at " + url_.printable +
          " was refused (HTTP 403: " + service_message(response) +
          "): the key= of the store URL may not do this (a read-only key cannot write, nor "
          "create a missing database or container: create them with a key that may), or "
          "this machine's clock is more than 15 minutes off the service's. Nothing was "
          "written.");
    }
    if (response.status == 413) {
      throw InvalidInputError("Cosmos DB " + std::string(request.what) + " at " + url_.printable +
                              " was refused as too large (HTTP 413: " + service_message(response) +
                              "); an item is at most 2 MB. Nothing was written.");
    }
    if (server_failure(response.status) || response.status == 429 || response.status == 449) {
      throw InfrastructureError("Cosmos DB " + std::string(request.what) + " at " + url_.printable +
                                " failed after " + kit::http::attempts_text(attempt) + " (HTTP " +
                                std::to_string(response.status) + ": " + service_message(response) +
                                "); retry later");
    }
    return response;
  }
}

void Client::fail(const Request& request, const Response& response) const {
  throw InfrastructureError("Cosmos DB " + std::string(request.what) + " at " + url_.printable +
                            " answered HTTP " + std::to_string(response.status) + ": " +
                            service_message(response));
}

void Client::create_if_missing(std::string_view what, std::string_view resource_type,
                               std::string parent_link, std::string path,
                               const nlohmann::json& body) const {
  const Request request{.what = what,
                        .method = "POST",
                        .resource_type = resource_type,
                        .resource_link = std::move(parent_link),
                        .path = std::move(path),
                        .body = body.dump(),
                        .replay = Replay::kSafe};
  const Response response = send(request);
  if (response.status != 201 && response.status != 409) {
    fail(request, response);
  }
}

void Client::ensure_container(std::string_view container, std::string_view partition_key) const {
  {
    const std::lock_guard lock(created_mutex_);
    if (created_.contains(container)) {
      return;
    }
  }
  // Two threads may both create: the second is told 409, which is what it wanted.
  bool database_made = false;
  {
    const std::lock_guard lock(created_mutex_);
    database_made = created_.contains(std::string_view());
  }
  if (!database_made) {
    const std::string what = "creation of database '" + url_.database + "'";
    create_if_missing(what, "dbs", "", "/dbs", {{"id", url_.database}});
    const std::lock_guard lock(created_mutex_);
    created_.insert(std::string());
  }
  const std::string what = "creation of container '" + std::string(container) + "'";
  create_if_missing(
      what, "colls", "dbs/" + url_.database, "/dbs/" + url_.database + "/colls",
      {{"id", container},
       {"partitionKey", {{"paths", nlohmann::json::array({partition_key})}, {"kind", "Hash"}}}});
  const std::lock_guard lock(created_mutex_);
  created_.insert(std::string(container));
}

}  // namespace docket::cosmos::detail
