#include "docket/inbox/inbox_store.h"

#include "core/delete_in_batches.h"
#include "docket/core/error.h"
#include "docket/core/tenant.h"
#include "docket/inbox/inbox_envelope.h"
#include "docket/inbox/inbox_options.h"
#include "docket/spi/inbox_unit.h"

namespace docket {

std::unique_ptr<UnitOfWork> InboxStore::begin() {
  return begin_unit();
}

std::unique_ptr<spi::InboxUnit> spi::InboxStoreAccess::begin(InboxStore& store) {
  return store.begin_unit();
}

std::vector<bool> spi::InboxUnit::recorded_among(std::string_view tenant,
                                                 std::string_view consumer_id,
                                                 std::span<const std::string> message_ids) {
  std::vector<bool> recorded;
  recorded.reserve(message_ids.size());
  DedupKey key{std::string(tenant), std::string(consumer_id), {}};
  for (const std::string& id : message_ids) {
    key.message_id = id;
    recorded.push_back(is_recorded(key));
  }
  return recorded;
}

std::vector<std::string> InboxStore::filter_unprocessed(std::string_view consumer_id,
                                                        std::span<const std::string> message_ids) {
  if (auto problem = consumer_id_problem(consumer_id)) {
    throw InvalidInputError("filter_unprocessed: " + *problem +
                            "; pass the consumer id the inbox options use");
  }
  for (std::size_t i = 0; i < message_ids.size(); ++i) {
    validate_message_id("filter_unprocessed: message id #" + std::to_string(i), message_ids[i]);
  }
  if (message_ids.empty()) {
    return {};
  }
  return do_filter_unprocessed(TenantScope::current_or_untenanted().value(), consumer_id,
                               message_ids);
}

std::uint64_t InboxStore::purge_processed_before(Timestamp cutoff, std::size_t batch_size) {
  if (batch_size == 0) {
    throw InvalidInputError(
        "purge_processed_before: batch size is 0; pass the most rows one short transaction may "
        "delete (e.g. 1000)");
  }
  return core::delete_in_batches(batch_size, [&] { return do_purge_batch(cutoff, batch_size); });
}

std::uint64_t InboxStore::purge_consumer(std::string_view consumer_id,
                                         const std::optional<TenantId>& tenant,
                                         std::size_t batch_size,
                                         const std::function<void(std::uint64_t)>& progress) {
  if (auto problem = consumer_id_problem(consumer_id)) {
    throw InvalidInputError("purge_consumer: " + *problem +
                            "; pass the consumer id the inbox options use");
  }
  if (batch_size == 0) {
    throw InvalidInputError(
        "purge_consumer: batch size is 0; pass the most rows one short transaction may delete "
        "(e.g. 1000)");
  }
  const std::string* only = tenant ? &tenant->value() : nullptr;
  return core::delete_in_batches(
      batch_size, [&] { return do_purge_consumer_batch(only, consumer_id, batch_size); }, progress);
}

std::size_t InboxStore::do_purge_consumer_batch(const std::string* /*tenant*/,
                                                std::string_view /*consumer_id*/,
                                                std::size_t /*limit*/) {
  throw ConfigurationError("the " + std::string(provider_name()) +
                           " inbox store cannot delete one consumer's dedup rows; use a "
                           "provider's own inbox store (memory, sqlite, postgres, dynamodb, "
                           "firestore)");
}

}  // namespace docket
