#include "providers/firestore/tests/firestore_collections.h"

#include <vector>

#include "providers/firestore/firestore_query.h"
#include "providers/firestore/tests/firestore_env.h"
#include "support/unique_name.h"

namespace docket::test_support {
namespace {

using firestore::detail::Client;

// The top-level collection ids of the database that start with `prefix`.
std::vector<std::string> collections_under(const Client& client, const std::string& prefix) {
  std::vector<std::string> found;
  std::string page_token;
  do {
    nlohmann::json request = {{"pageSize", 300}};
    if (!page_token.empty()) {
      request["pageToken"] = page_token;
    }
    const firestore::detail::Response page = client.call(
        {.method = "listCollectionIds", .replay = firestore::detail::Replay::kSafe}, request);
    for (const nlohmann::json& id : page.body().value("collectionIds", nlohmann::json::array())) {
      if (id.get_ref<const std::string&>().starts_with(prefix)) {
        found.push_back(id.get<std::string>());
      }
    }
    page_token = page.body().value("nextPageToken", "");
  } while (!page_token.empty());
  return found;
}

}  // namespace

FirestoreCollections::FirestoreCollections()
    : prefix_(unique_name("docket") + "_"), url_(firestore_test_url() + "&prefix=" + prefix_) {
  drop_collections();
}

FirestoreCollections::~FirestoreCollections() {
  try {
    drop_collections();
  } catch (...) {  // a destructor cannot fail the test; the emulator is in memory anyway
  }
}

void FirestoreCollections::drop_collections() const {
  const Client client(firestore::detail::parse_store_url(url_));
  for (const std::string& collection : collections_under(client, prefix_)) {
    firestore::detail::delete_collection(client, collection);
  }
}

}  // namespace docket::test_support
