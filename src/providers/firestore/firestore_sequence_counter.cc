// A sequence counter on Firestore (firestore_sequence_counter.h).
#include "providers/firestore/firestore_sequence_counter.h"

#include <nlohmann/json.hpp>

#include "docket/core/error.h"
#include "providers/firestore/firestore_documents.h"
#include "providers/firestore/firestore_value.h"

namespace docket::firestore::detail {

std::int64_t draw_sequences(const Client& client, const SequenceCounter& counter,
                            std::int64_t count, std::string_view store) {
  const nlohmann::json request = {
      {"writes", nlohmann::json::array(
                     {{{"update",
                        {{"name", client.url().document_name(counter.collection, counter.id)},
                         {"fields", nlohmann::json::object()}}},
                       {"updateMask", {{"fieldPaths", nlohmann::json::array()}}},
                       {"updateTransforms",
                        nlohmann::json::array({{{"fieldPath", counter.field},
                                                {"increment", integer_value(count)}}})}}})}};
  const Response response = client.call({.method = "commit",
                                         .target = collection_target(counter.collection),
                                         .replay = Replay::kUnsafe},
                                        request);
  const nlohmann::json& results = response.body().value("writeResults", nlohmann::json());
  if (results.is_array() && results.size() == 1) {
    const nlohmann::json& transforms = results[0].value("transformResults", nlohmann::json());
    if (transforms.is_array() && transforms.size() == 1) {
      const nlohmann::json fields = {{counter.field, transforms[0]}};
      return FieldReader(fields, std::string(store) + ", the sequence counter")
          .integer(counter.field);
    }
  }
  throw InfrastructureError(
      std::string(store) + ": the sequence counter's increment answered without its result (" +
      response.body().dump().substr(0, 200) + "); is the endpoint a Firestore server?");
}

}  // namespace docket::firestore::detail
