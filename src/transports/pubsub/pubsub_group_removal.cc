#include "transports/pubsub/pubsub_group_removal.h"

#include <string>

#include "docket/core/error.h"
#include "docket/pubsub/transport.h"
#include "transports/pubsub/pubsub_client.h"
#include "transports/pubsub/pubsub_url.h"

namespace docket::pubsub::detail {

void remove_group(std::string_view url, std::string_view destination, std::string_view group) {
  const Client client(parse_pubsub_url(url));
  const PubSubTransport transport(url);
  const std::string project = client.url().project_path();
  const std::string paths[] = {
      project + "/subscriptions/" + transport.subscription_name(destination, group),
      project + "/topics/" + transport.topic_name(destination),
      project + "/topics/" + transport.topic_name(transport.dead_letter_destination(destination))};
  for (const std::string& path : paths) {
    const std::string what = client.describe() + ": deleting " + path;
    const Answer answer = client.call("DELETE", path, nullptr, kit::http::Replay::kSafe, what);
    if (!answer.ok() && answer.http_status != 404)  // gone already: nothing to remove
      throw InfrastructureError(what + " failed: " + answer.error_text());
  }
}

}  // namespace docket::pubsub::detail
