// The Cosmos DB REST requests the raw sides of `docket bench` send, written plainly over
// the provider's client (cosmos_client.h: signing, dating, the service's retries, the
// request charge), with no store code between: a transactional batch, a point read, a
// point create, a replace under If-Match, a query of one partition, the partition key
// ranges and a page of a query of one of them, and a server-side increment (patch) of a
// number. The client adds
// each answer's charge to raw_request_units() (cosmos_raw_charges.h).
//
// Outcomes a raw side acts on come back (a batch's failing operation, a 404, a 409, a
// 412); anything else is thrown as the client words it (Client::fail).
//
// Thread-safety: a RawRest belongs to one session's thread.
#ifndef DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_REST_H_
#define DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_REST_H_

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cosmos_raw_charges.h"
#include "providers/cosmos/cosmos_client.h"

namespace docket::bench {

// The options of a client the bench's own set-up, checks and claim effects use: it
// counts its requests and their request units nowhere, as they are neither side's
// (claim_effect.h).
inline cosmos::detail::ClientOptions cosmos_check_client_options() {
  return {.http = {.request_count = nullptr}, .milli_request_units = nullptr};
}

// The operation that failed a transactional batch (nothing of it applied).
struct RawBatchFailure {
  std::size_t index = 0;
  long status = 0;
};

class RawRest {
 public:
  // `url`: the raw side's store URL. Its requests count into kit::http::raw_requests(),
  // their charges into raw_request_units().
  explicit RawRest(const std::string& url);

  // One atomic, ordered transactional batch of `operations` in `partition` of
  // `container`: nullopt when applied.
  std::optional<RawBatchFailure> batch(std::string_view container, std::string_view partition,
                                       const nlohmann::json& operations);
  // The same batch: the etag each operation's item has after it, in order, or nullopt
  // when an operation failed it (nothing of it applied).
  std::optional<std::vector<std::string>> batch_etags(std::string_view container,
                                                      std::string_view partition,
                                                      const nlohmann::json& operations);
  // The item, or nullopt (404).
  std::optional<nlohmann::json> read(std::string_view container, std::string_view id,
                                     std::string_view partition);
  // Creates `item`: its etag, or nullopt when the id exists (409).
  std::optional<std::string> create(std::string_view container, std::string_view partition,
                                    const nlohmann::json& item);
  // Replaces item `id` with `item` if its etag is `etag`: the new etag, or nullopt (412,
  // 404).
  std::optional<std::string> replace(std::string_view container, std::string_view partition,
                                     std::string_view id, const nlohmann::json& item,
                                     std::string_view etag);
  // Every result of `sql` (with `parameters`) in `partition`, page after page.
  nlohmann::json query(std::string_view container, std::string_view partition, std::string_view sql,
                       const nlohmann::json& parameters);
  // The ids of `container`'s partition key ranges (one GET of its pkranges feed).
  std::vector<std::string> partition_key_ranges(std::string_view container);
  // The first page, at most `max_items`, of `sql` over partition key range `range` of
  // `container` (how a query across partitions with ORDER BY is sent to the service: once
  // per range); nullopt when the range split or merged away (410), so the ranges are read
  // again.
  std::optional<nlohmann::json> query_range(std::string_view container, const std::string& range,
                                            std::string_view sql, const nlohmann::json& parameters,
                                            std::size_t max_items);
  // Raises the integer property `property` of item `id` (partitioned by "/id") by `by`
  // on the server (one patch `incr`): its new value, or nullopt when there is no item.
  std::optional<std::int64_t> increment(std::string_view container, std::string_view id,
                                        std::string_view property, std::int64_t by);

  const cosmos::detail::Client& client() const noexcept { return client_; }

 private:
  cosmos::detail::Response send(const cosmos::detail::Request& request);
  // The batch's answer when it applied (200), nullopt when an operation failed it.
  std::optional<cosmos::detail::Response> send_batch(std::string_view container,
                                                     std::string_view partition,
                                                     const nlohmann::json& operations,
                                                     std::optional<RawBatchFailure>& failure);

  cosmos::detail::Client client_;
};

}  // namespace docket::bench

#endif  // DOCKET_PROVIDERS_COSMOS_BENCH_COSMOS_RAW_REST_H_
