#include "providers/cosmos/cosmos_partition_ranges.h"

#include <cstdint>
#include <optional>
#include <set>
#include <utility>

#include "docket/core/error.h"

namespace docket::cosmos::detail {

bool range_is_gone(const Response& response) {
  return response.status == 410 && (response.substatus == kRangeGoneSubstatus ||
                                    response.substatus == kCompletingSplitSubstatus ||
                                    response.substatus == kCompletingMigrationSubstatus);
}

namespace {

// A range's id as text: the service's ids are strings ("0"); a whole number (the test
// server as published numbers its one range 0) is read as its decimal text.
std::optional<std::string> id_text(const nlohmann::json& value) {
  if (value.is_string()) {
    return value.get<std::string>();
  }
  if (value.is_number_unsigned() || value.is_number_integer()) {
    return std::to_string(value.get<std::int64_t>());
  }
  return std::nullopt;
}

}  // namespace

std::vector<std::string> current_range_ids(const nlohmann::json& ranges) {
  std::vector<std::string> ids;
  if (!ranges.is_array()) {
    return ids;
  }
  std::set<std::string, std::less<>> parents;
  for (const nlohmann::json& range : ranges) {
    const auto of = range.find("parents");
    if (range.is_object() && of != range.end() && of->is_array()) {
      for (const nlohmann::json& parent : *of) {
        if (std::optional<std::string> text = id_text(parent)) {
          parents.insert(std::move(*text));
        }
      }
    }
  }
  for (const nlohmann::json& range : ranges) {
    if (!range.is_object()) {
      continue;
    }
    const auto id = range.find("id");
    std::optional<std::string> text = id == range.end() ? std::nullopt : id_text(*id);
    if (text && !parents.contains(*text)) {
      ids.push_back(std::move(*text));
    }
  }
  return ids;
}

std::vector<std::string> read_partition_key_ranges(const Client& client,
                                                   std::string_view container) {
  const std::string what =
      "read of the partition key ranges of container '" + std::string(container) + "'";
  nlohmann::json ranges = nlohmann::json::array();
  std::string continuation;
  do {
    Request request{.what = what,
                    .method = "GET",
                    .resource_type = "pkranges",
                    .resource_link = client.container_link(container),
                    .path = "/" + client.container_link(container) + "/pkranges",
                    .replay = Replay::kSafe};
    if (!continuation.empty()) {
      request.headers.push_back({"x-ms-continuation", continuation});
    }
    Response response = client.send(request);
    if (response.status != 200 || !response.body.is_object() ||
        !response.body.contains("PartitionKeyRanges") ||
        !response.body["PartitionKeyRanges"].is_array()) {
      client.fail(request, response);
    }
    for (nlohmann::json& range : response.body["PartitionKeyRanges"]) {
      ranges.push_back(std::move(range));
    }
    continuation = std::move(response.continuation);
  } while (!continuation.empty());
  std::vector<std::string> ids = current_range_ids(ranges);
  if (ids.empty()) {
    throw InfrastructureError("Cosmos DB " + what + " at " + client.url().printable +
                              " named no partition key range; the container cannot be queried "
                              "across partitions. Retry later.");
  }
  return ids;
}

}  // namespace docket::cosmos::detail
