#include "cosmos_raw_rest.h"

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_partition_ranges.h"
#include "providers/kit/http/request_count.h"

namespace docket::bench {
namespace {

using cosmos::detail::partition_key_header;
using cosmos::detail::Replay;
using cosmos::detail::Request;
using cosmos::detail::Response;

constexpr std::string_view kWhat = "raw bench request";

}  // namespace

RawRest::RawRest(const std::string& url)
    : client_(cosmos::detail::parse_store_url(url),
              {.http = {.request_count = &kit::http::raw_requests()},
               .milli_request_units = &raw_milli_request_units()}) {}

Response RawRest::send(const Request& request) {
  return client_.send(request);
}

std::optional<Response> RawRest::send_batch(std::string_view container, std::string_view partition,
                                            const nlohmann::json& operations,
                                            std::optional<RawBatchFailure>& failure) {
  const std::string link = client_.container_link(container);
  const Request request{
      .what = "raw bench transactional batch",
      .method = "POST",
      .resource_type = "docs",
      .resource_link = link,
      .path = "/" + link + "/docs",
      .headers = {{"x-ms-cosmos-is-batch-request", "True"},
                  {"x-ms-cosmos-batch-atomic", "True"},
                  {"x-ms-cosmos-batch-ordered", "True"},
                  {"x-ms-documentdb-partitionkey", partition_key_header(partition)}},
      .body = operations.dump(),
      .replay = Replay::kUnsafe};
  Response response = send(request);
  if (response.status == 200) {
    return response;
  }
  if (response.status == 207 && response.body.is_array()) {
    for (std::size_t i = 0; i < response.body.size(); ++i) {
      const nlohmann::json& result = response.body[i];
      const long status = result.is_object() ? result.value("statusCode", 0L) : 0L;
      if (status >= 400 && status != 424) {  // 424: failed because another one did
        failure = RawBatchFailure{.index = i, .status = status};
        return std::nullopt;
      }
    }
  }
  client_.fail(request, response);
}

std::optional<RawBatchFailure> RawRest::batch(std::string_view container,
                                              std::string_view partition,
                                              const nlohmann::json& operations) {
  std::optional<RawBatchFailure> failure;
  send_batch(container, partition, operations, failure);
  return failure;
}

std::optional<std::vector<std::string>> RawRest::batch_etags(std::string_view container,
                                                             std::string_view partition,
                                                             const nlohmann::json& operations) {
  std::optional<RawBatchFailure> failure;
  const std::optional<Response> response = send_batch(container, partition, operations, failure);
  if (!response) {
    return std::nullopt;
  }
  std::vector<std::string> etags;
  etags.reserve(operations.size());
  for (const nlohmann::json& result : response->body) {
    etags.push_back(result.is_object() ? result.value("eTag", std::string()) : std::string());
  }
  return etags;
}

std::optional<nlohmann::json> RawRest::read(std::string_view container, std::string_view id,
                                            std::string_view partition) {
  const Request request{
      .what = kWhat,
      .method = "GET",
      .resource_type = "docs",
      .resource_link = client_.item_link(container, id),
      .path = client_.item_path(container, id),
      .headers = {{"x-ms-documentdb-partitionkey", partition_key_header(partition)}},
      .replay = Replay::kSafe};
  Response response = send(request);
  if (response.status == 404) {
    return std::nullopt;
  }
  if (response.status != 200) {
    client_.fail(request, response);
  }
  return std::move(response.body);
}

std::optional<std::string> RawRest::create(std::string_view container, std::string_view partition,
                                           const nlohmann::json& item) {
  const std::string link = client_.container_link(container);
  const Request request{
      .what = kWhat,
      .method = "POST",
      .resource_type = "docs",
      .resource_link = link,
      .path = "/" + link + "/docs",
      .headers = {{"x-ms-documentdb-partitionkey", partition_key_header(partition)}},
      .body = item.dump()};
  const Response response = send(request);
  if (response.status == 409) {
    return std::nullopt;
  }
  if (response.status != 201) {
    client_.fail(request, response);
  }
  return response.etag;
}

std::optional<std::string> RawRest::replace(std::string_view container, std::string_view partition,
                                            std::string_view id, const nlohmann::json& item,
                                            std::string_view etag) {
  const Request request{
      .what = kWhat,
      .method = "PUT",
      .resource_type = "docs",
      .resource_link = client_.item_link(container, id),
      .path = client_.item_path(container, id),
      .headers = {{"x-ms-documentdb-partitionkey", partition_key_header(partition)},
                  {"If-Match", std::string(etag)}},
      .body = item.dump()};
  const Response response = send(request);
  if (response.status == 412 || response.status == 404) {
    return std::nullopt;
  }
  if (response.status != 200) {
    client_.fail(request, response);
  }
  return response.etag;
}

nlohmann::json RawRest::query(std::string_view container, std::string_view partition,
                              std::string_view sql, const nlohmann::json& parameters) {
  const std::string link = client_.container_link(container);
  Request request{.what = kWhat,
                  .method = "POST",
                  .resource_type = "docs",
                  .resource_link = link,
                  .path = "/" + link + "/docs",
                  .headers = {{"Content-Type", "application/query+json"},
                              {"x-ms-documentdb-isquery", "True"},
                              {"x-ms-documentdb-partitionkey", partition_key_header(partition)}},
                  .body = nlohmann::json{{"query", sql}, {"parameters", parameters}}.dump(),
                  .replay = Replay::kSafe};
  nlohmann::json results = nlohmann::json::array();
  for (;;) {
    const Response response = send(request);
    if (response.status != 200) {
      client_.fail(request, response);
    }
    for (const nlohmann::json& item : response.body.value("Documents", nlohmann::json::array())) {
      results.push_back(item);
    }
    if (response.continuation.empty()) {
      return results;
    }
    request.headers.resize(3);
    request.headers.push_back({"x-ms-continuation", response.continuation});
  }
}

std::vector<std::string> RawRest::partition_key_ranges(std::string_view container) {
  return cosmos::detail::read_partition_key_ranges(client_, container);
}

std::optional<nlohmann::json> RawRest::query_range(std::string_view container,
                                                   const std::string& range, std::string_view sql,
                                                   const nlohmann::json& parameters,
                                                   std::size_t max_items) {
  const std::string link = client_.container_link(container);
  const Request request{.what = kWhat,
                        .method = "POST",
                        .resource_type = "docs",
                        .resource_link = link,
                        .path = "/" + link + "/docs",
                        .headers = {{"Content-Type", "application/query+json"},
                                    {"x-ms-documentdb-isquery", "True"},
                                    {"x-ms-documentdb-query-enablecrosspartition", "True"},
                                    {"x-ms-documentdb-partitionkeyrangeid", range},
                                    {"x-ms-max-item-count", std::to_string(max_items)}},
                        .body = nlohmann::json{{"query", sql}, {"parameters", parameters}}.dump(),
                        .replay = Replay::kSafe};
  Response response = send(request);
  if (cosmos::detail::range_is_gone(response)) {
    return std::nullopt;
  }
  if (response.status != 200 || !response.body.is_object()) {
    client_.fail(request, response);
  }
  return response.body.value("Documents", nlohmann::json::array());
}

std::optional<std::int64_t> RawRest::increment(std::string_view container, std::string_view id,
                                               std::string_view property, std::int64_t by) {
  const std::string path = "/" + std::string(property);
  const nlohmann::json patch = {
      {"operations", nlohmann::json::array({{{"op", "incr"}, {"path", path}, {"value", by}}})}};
  const Request request{.what = kWhat,
                        .method = "PATCH",
                        .resource_type = "docs",
                        .resource_link = client_.item_link(container, id),
                        .path = client_.item_path(container, id),
                        .headers = {{"Content-Type", "application/json_patch+json"},
                                    {"x-ms-documentdb-partitionkey", partition_key_header(id)}},
                        .body = patch.dump(),
                        .replay = Replay::kSafe};  // applied twice, a draw only leaves a gap
  const Response response = send(request);
  if (response.status == 404) {
    return std::nullopt;
  }
  const std::string name(property);
  if (response.status != 200 || !response.body.is_object() || !response.body.contains(name) ||
      !response.body[name].is_number_integer()) {
    client_.fail(request, response);
  }
  return response.body[name].get<std::int64_t>();
}

}  // namespace docket::bench
