// The fixture of the Cosmos DB outbox's key item tests (cosmos_outbox_key_order_test.cc,
// cosmos_outbox_key_removal_test.cc): an outbox store on a database of its own on the
// test server, producer units of work a test can hook at each step of their commit
// (Unit::on_commit_step), and reads of a key item and of a message's sequence.
//
// Thread-safety: the store, the outbox and the client may be used from many threads; a
// unit of work belongs to one thread.
#ifndef DOCKET_PROVIDERS_COSMOS_TESTS_COSMOS_OUTBOX_KEY_FIXTURE_H_
#define DOCKET_PROVIDERS_COSMOS_TESTS_COSMOS_OUTBOX_KEY_FIXTURE_H_

#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/clock.h"
#include "docket/core/tenant.h"
#include "docket/outbox/outbox.h"
#include "docket/stores/open_store.h"
#include "providers/cosmos/cosmos_client.h"
#include "providers/cosmos/cosmos_inbox_store.h"
#include "providers/cosmos/cosmos_items.h"
#include "providers/cosmos/cosmos_outbox_key_item.h"
#include "providers/cosmos/cosmos_unit.h"
#include "providers/cosmos/tests/cosmos_database.h"

namespace docket::cosmos::detail {

inline constexpr std::string_view kKeyFixtureTenant = "acme";

class CosmosOutboxKeyFixture : public ::testing::Test {
 protected:
  CosmosOutboxKeyFixture()
      : store_(docket::open_outbox_store(database_.url(), SystemClock::instance())),
        outbox_(*store_),
        client_(parse_store_url(database_.url())),
        container_(client_.url().container(kInboxContainerBase)),
        context_{client_, container_, "test outbox"} {}

  // A producer's unit of work on the store's container, open for a test to hook.
  std::unique_ptr<Unit> unit() const { return std::make_unique<Unit>(context_); }

  // Stages a message of ordering key `key` in `unit`; its id.
  std::string stage(Unit& unit, std::string key) const {
    const TenantScope acme{TenantId(std::string(kKeyFixtureTenant))};
    return outbox_.stage(unit.transaction(), {.event_type = "T", .ordering_key = std::move(key)})
        .to_string();
  }

  // Commits one message of `key` in a unit of its own; its id.
  std::string produce(const std::string& key) const {
    const std::unique_ptr<Unit> alone = unit();
    const std::string id = stage(*alone, key);
    alone->commit();
    return id;
  }

  std::int64_t sequence_of(const std::string& id) const {
    const std::optional<OutboxRecord> found = store_->find(id);
    return found ? found->sequence : -1;
  }

  // The key item's lastSequence, or -1 when there is none.
  std::int64_t last_sequence(const std::string& key) const {
    const std::optional<ReadItem> read =
        read_item(client_, {.container = container_,
                            .id = outbox::key_item_id(kKeyFixtureTenant, key),
                            .partition_key = kKeyFixtureTenant});
    return read ? read->body.value("lastSequence", std::int64_t{-2}) : -1;
  }

  // Claims at most 10 messages for relay "relay"; their ids, lowest sequence first.
  std::vector<std::string> claim_ids() const {
    const Timestamp now = SystemClock::instance().now();
    std::vector<std::string> ids;
    for (const OutboxRecord& record :
         store_->claim("relay", now, now + std::chrono::minutes(5), 10)) {
      ids.push_back(record.id);
    }
    return ids;
  }

  test_support::CosmosDatabase database_;
  std::unique_ptr<OutboxStore> store_;
  Outbox outbox_;
  Client client_;
  std::string container_;
  UnitContext context_;
};

}  // namespace docket::cosmos::detail

#endif  // DOCKET_PROVIDERS_COSMOS_TESTS_COSMOS_OUTBOX_KEY_FIXTURE_H_
