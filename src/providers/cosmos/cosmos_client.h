// Client: sends Cosmos DB SQL API requests (REST, JSON) to the account a store URL names,
// each signed with the master key (kit/http/cosmos_master_key.h) and dated, over the kit's
// HttpClient (connections kept alive), and returns the answer with its status, its item
// or feed, its etag, its continuation and the request units it cost.
//
// Statuses: every answer comes back to the caller, who knows which ones are outcomes (201
// created, 404 not found, 409 conflict, 412 precondition failed, 207 a batch that failed),
// except those that no caller can act on, thrown here naming the request:
//   401        ConfigurationError: the key= of the store URL is not the account's;
//   403        ConfigurationError: the key may not do this (a read-only key, a missing
//              container without permission to create it), or the clock is 15 minutes off;
//   413, 400 naming a size   InvalidInputError: the item or request is over a limit;
//   anything else >= 500 after the attempts below   InfrastructureError.
// A caller's other unexpected statuses go through fail(), which words them the same way.
//
// Retries, in RetryOptions::max_attempts (capped exponential backoff, full jitter, kit
// RetryPolicy), and only where a second sending cannot apply the request twice:
//   429 (throttled) and 449 (retry with: a concurrent write of the same item refused
//   this one): always, as the service applied nothing; a 429 waits what its
//   x-ms-retry-after-ms asks (at most 5 s a time) rather than the backoff;
//   a connection that could not be made: always;
//   408, 500, 503, a timeout or a connection broken after sending: only Replay::kSafe
//   requests (reads, queries), as a write may have been applied.
//
// Request units: every answer's x-ms-request-charge is added to request_units() (every
// attempt's, throttled ones included: that is the bill), and given with the answer; and,
// in thousandths, to the process-wide counter ClientOptions::milli_request_units names:
// docket_milli_request_units() unless told otherwise (`docket bench` reads docket's
// stores' total there, while its raw side's clients name a counter of their own so the
// two never mix, and its checks' clients name none).
//
// Containers: ensure_container() creates the database and a container on first use (each
// once per client), a 409 meaning another process made it first.
//
// Thread-safety: send() and ensure_container() may be used from many threads at once.
#ifndef DOCKET_PROVIDERS_COSMOS_COSMOS_CLIENT_H_
#define DOCKET_PROVIDERS_COSMOS_COSMOS_CLIENT_H_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "providers/cosmos/cosmos_url.h"
#include "providers/kit/http/http_client.h"
#include "providers/kit/http/http_message.h"
#include "providers/kit/http/replay.h"
#include "providers/kit/http/retry_policy.h"

namespace docket::cosmos::detail {

using Replay = kit::http::Replay;

// The REST API version docket speaks (x-ms-version): transactional batches need 2018-12-31.
inline constexpr std::string_view kApiVersion = "2018-12-31";

// Thousandths of a request unit every client counting into docket's total (the default)
// has been charged so far in this process, as kit::http::docket_requests() counts their
// requests. Only grows.
inline std::atomic<std::uint64_t>& docket_milli_request_units() noexcept {
  static std::atomic<std::uint64_t> total{0};
  return total;
}

struct ClientOptions {
  kit::http::HttpClientOptions http{};
  kit::http::RetryOptions retry{.max_attempts = 9};
  // The process-wide counter this client's charges are added to, in thousandths of a
  // request unit; nullptr: none. It must outlive the client.
  std::atomic<std::uint64_t>* milli_request_units = &docket_milli_request_units();
};

// One request. The resource link is what is signed: the item's link for a request on an
// item ("dbs/d/colls/c/docs/ID"), the parent's for a create, list or query of its
// children ("dbs/d/colls/c" with resource type "docs").
struct Request {
  std::string_view what{};  // "read of item 'X' in container 'Y'": begins every message
  std::string_view method = "GET";
  std::string_view resource_type{};  // "dbs", "colls", "docs"
  std::string resource_link{};
  std::string path{};  // after the endpoint, ids percent-encoded: "/dbs/d/colls/c/docs/ID"
  std::vector<kit::http::HttpHeader> headers{};  // beyond those every request carries
  std::string body{};
  Replay replay = Replay::kUnsafe;
};

struct Response {
  long status = 0;
  nlohmann::json body{};       // null when the answer had no body
  std::string etag{};          // the etag header, "" when none
  std::string continuation{};  // x-ms-continuation, "" when the feed is done
  double request_charge = 0;   // x-ms-request-charge of the last attempt
  int substatus = 0;           // x-ms-substatus, 0 when none (410 with 1002: a range split)
  // x-ms-retry-after-ms of a 429, 0 when none.
  std::chrono::microseconds retry_after{0};
};

class Client {
 public:
  explicit Client(StoreUrl url, const ClientOptions& options = {});

  // Sends `request` as the header comment says and returns its answer.
  Response send(const Request& request) const;

  // Creates the database and `container` (partition key path `partition_key`, "/id")
  // when this client has not yet, tolerating their existence.
  void ensure_container(std::string_view container, std::string_view partition_key) const;

  // Throws InfrastructureError for an answer its caller did not expect, naming the
  // request, the status and the service's message.
  [[noreturn]] void fail(const Request& request, const Response& response) const;

  // "/dbs/{database}/colls/{container}", its resource link without the leading '/'.
  std::string container_link(std::string_view container) const;
  // The link of item `id` of `container`, and its path with the id percent-encoded.
  std::string item_link(std::string_view container, std::string_view id) const;
  std::string item_path(std::string_view container, std::string_view id) const;

  // Request units every answer to this client has cost so far.
  double request_units() const noexcept;

  const StoreUrl& url() const noexcept { return url_; }

 private:
  kit::http::HttpRequest http_request(const Request& request) const;
  void create_if_missing(std::string_view what, std::string_view resource_type,
                         std::string parent_link, std::string path,
                         const nlohmann::json& body) const;

  StoreUrl url_;
  kit::http::HttpClient http_;
  kit::http::RetryPolicy retry_;
  mutable std::atomic<std::uint64_t> milli_request_units_{0};
  std::atomic<std::uint64_t>* process_milli_request_units_;  // ClientOptions' counter
  mutable std::mutex created_mutex_;
  mutable std::set<std::string, std::less<>> created_;  // containers ensured ("" = database)
};

// `value` as x-ms-documentdb-partitionkey carries it: ["value"], in ASCII (JSON escapes).
std::string partition_key_header(std::string_view value);

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_COSMOS_CLIENT_H_
