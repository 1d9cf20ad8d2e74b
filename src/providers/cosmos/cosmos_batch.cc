// One transactional batch, sent (cosmos_batch.h).
#include "providers/cosmos/cosmos_batch.h"

#include "docket/core/error.h"

namespace docket::cosmos::detail {
namespace {

// The service's message for one operation of a failed batch, "" when it gave none.
std::string operation_message(const nlohmann::json& result) {
  const auto body = result.find("resourceBody");
  if (body == result.end() || !body->is_object()) {
    return {};
  }
  const auto message = body->find("message");
  return message != body->end() && message->is_string() ? message->get<std::string>()
                                                        : std::string();
}

// Whether `operations` is one Create alone.
bool one_create(const nlohmann::json& operations) {
  return operations.is_array() && operations.size() == 1 && operations[0].is_object() &&
         operations[0].value("operationType", std::string()) == "Create" &&
         operations[0].contains("resourceBody") && operations[0]["id"].is_string();
}

}  // namespace

std::optional<BatchFailure> send_batch_or_point_create(const Client& client, const Batch& batch) {
  if (!one_create(batch.operations)) {
    return send_batch(client, batch);
  }
  const std::string link = client.container_link(batch.container);
  const Request request{
      .what = batch.what,
      .method = "POST",
      .resource_type = "docs",
      .resource_link = link,
      .path = "/" + link + "/docs",
      .headers = {{"x-ms-documentdb-partitionkey", partition_key_header(batch.partition)}},
      .body = batch.operations[0]["resourceBody"].dump(),
      .replay = Replay::kUnsafe};
  const Response response = client.send(request);
  if (response.status == 201) {
    return std::nullopt;
  }
  if (response.status == 409 || response.status == 400 || response.status == 413) {
    // As the batch answers them: that operation's status and the service's message.
    return BatchFailure{.index = 0,
                        .status = response.status,
                        .message = operation_message({{"resourceBody", response.body}})};
  }
  client.fail(request, response);
}

std::optional<BatchFailure> send_batch(const Client& client, const Batch& batch) {
  return send_batch_etags(client, batch).failure;
}

BatchOutcome send_batch_etags(const Client& client, const Batch& batch) {
  const std::string link = client.container_link(batch.container);
  const Request request{
      .what = batch.what,
      .method = "POST",
      .resource_type = "docs",
      .resource_link = link,
      .path = "/" + link + "/docs",
      .headers = {{"x-ms-cosmos-is-batch-request", "True"},
                  {"x-ms-cosmos-batch-atomic", "True"},
                  {"x-ms-cosmos-batch-ordered", "True"},
                  {"x-ms-documentdb-partitionkey", partition_key_header(batch.partition)}},
      .body = batch.operations.dump(),
      .replay = Replay::kUnsafe};
  const Response response = client.send(request);
  if (response.status == 200) {
    BatchOutcome applied;
    applied.etags.resize(batch.operations.size());
    for (std::size_t i = 0;
         response.body.is_array() && i < response.body.size() && i < applied.etags.size(); ++i) {
      const nlohmann::json& result = response.body[i];
      if (const auto etag = result.find("eTag"); etag != result.end() && etag->is_string()) {
        applied.etags[i] = etag->get<std::string>();
      }
    }
    return applied;
  }
  if (response.status == 207 && response.body.is_array()) {
    // The operation that failed is the one not answered 424 ("failed dependency").
    for (std::size_t i = 0; i < response.body.size() && i < batch.operations.size(); ++i) {
      const nlohmann::json& result = response.body[i];
      const auto code = result.find("statusCode");  // end() for a non-object
      const long status =
          code != result.end() && code->is_number_integer() ? code->get<long>() : 0L;
      if (status >= 400 && status != 424) {
        return BatchOutcome{
            .failure =
                BatchFailure{.index = i, .status = status, .message = operation_message(result)},
            .etags = {}};
      }
    }
  }
  if (response.status == 400) {
    throw InvalidInputError(std::string(batch.store) + ": the " + std::string(batch.what) +
                            " was refused as malformed (HTTP 400); nothing was written");
  }
  client.fail(request, response);
}

}  // namespace docket::cosmos::detail
