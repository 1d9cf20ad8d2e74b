// A Cosmos DB sequence counter (cosmos_sequence_counter.h).
#include "providers/cosmos/cosmos_sequence_counter.h"

#include <string>

#include "docket/core/error.h"
#include "providers/cosmos/cosmos_items.h"

namespace docket::cosmos::detail {
namespace {

constexpr std::string_view kLastSequence = "lastSequence";

}  // namespace

std::int64_t draw_sequences(const Client& client, const SequenceCounter& counter,
                            std::int64_t count, std::string_view store) {
  client.ensure_container(counter.container, "/id");
  const std::string what = "draw of " + std::to_string(count) + " sequences from counter '" +
                           counter.id + "' in container '" + counter.container + "'";
  const nlohmann::json patch = {
      {"operations",
       nlohmann::json::array(
           {{{"op", "incr"}, {"path", "/" + std::string(kLastSequence)}, {"value", count}}})}};
  const Request request{
      .what = what,
      .method = "PATCH",
      .resource_type = "docs",
      .resource_link = client.item_link(counter.container, counter.id),
      .path = client.item_path(counter.container, counter.id),
      .headers = {{"Content-Type", "application/json_patch+json"},
                  {"x-ms-documentdb-partitionkey", partition_key_header(counter.id)}},
      .body = patch.dump(),
      // Applied twice after a lost answer, a draw only leaves a gap (header comment).
      .replay = Replay::kSafe};
  // The first draw of a counter finds no item: make it at 0 (another process may have
  // made it first) and draw again.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const Response response = client.send(request);
    if (response.status == 404 && attempt == 0) {
      create_item(client,
                  {.container = counter.container, .id = counter.id, .partition_key = counter.id},
                  {{"id", counter.id}, {std::string(kLastSequence), 0}});
      continue;
    }
    if (response.status != 200) {
      client.fail(request, response);
    }
    const std::string field(kLastSequence);
    if (!response.body.is_object() || !response.body.contains(field) ||
        !response.body[field].is_number_integer()) {
      throw InfrastructureError(std::string(store) + ": the " + what +
                                " answered without an integer '" + field +
                                "'; was the counter item changed outside docket?");
    }
    return response.body[field].get<std::int64_t>();
  }
  throw InfrastructureError(std::string(store) + ": the " + what +
                            " found no counter item after creating it");
}

}  // namespace docket::cosmos::detail
