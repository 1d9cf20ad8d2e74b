// The Cosmos DB provider's key terms (src/keys/cosmos_key.h): the outbox key item's id
// keeps its shape, escapes what Cosmos DB refuses in an id and the separator, keeps two
// (tenant, ordering key) pairs apart, is never a dedup id, and is refused past 1,023 bytes
// or for an empty or malformed term.
#include "keys/cosmos_key.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "docket/core/error.h"
#include "docket/keys/inbox_key.h"

namespace docket::keys {
namespace {

TEST(CosmosKey, OutboxKeyItemIdKeepsItsShapeEscaped) {
  const Key id = compose_cosmos_outbox_key_item_id("acme", "order-7");
  EXPECT_EQ(id.value, "docket:outbox:key:acme:order-7");
  EXPECT_EQ(id.provider, Provider::kCosmosDb);
  EXPECT_EQ(id.limit_bytes, 1023U);
  // '/', '?', '#' and space are refused in a Cosmos DB id, ':' and '%' are the codec's.
  EXPECT_EQ(compose_cosmos_outbox_key_item_id("a:b", "k/1?#x %").value,
            "docket:outbox:key:a%3Ab:k%2F1%3F%23x%20%25");
}

TEST(CosmosKey, OutboxKeyItemIdsKeepPairsApartAndClearOfDedupIds) {
  // An escaped ':' keeps terms apart: (a:b, c) and (a, b:c) differ.
  EXPECT_NE(compose_cosmos_outbox_key_item_id("a:b", "c").value,
            compose_cosmos_outbox_key_item_id("a", "b:c").value);
  EXPECT_NE(compose_cosmos_outbox_key_item_id("t1", "k").value,
            compose_cosmos_outbox_key_item_id("t2", "k").value);
  // Four unescaped ':' where a dedup id has two: no inbox entry id parses from it.
  const std::string id = compose_cosmos_outbox_key_item_id("docket", "key").value;
  EXPECT_EQ(std::count(id.begin(), id.end(), ':'), 4);
  EXPECT_EQ(parse_inbox_entry_id(Provider::kCosmosDb, id), std::nullopt);
}

TEST(CosmosKey, OutboxKeyItemIdIsRefusedPastTheIdLimit) {
  const std::size_t room = 1023 - std::string("docket:outbox:key:t:").size();
  EXPECT_EQ(compose_cosmos_outbox_key_item_id("t", std::string(room, 'k')).value.size(), 1023U);
  try {
    compose_cosmos_outbox_key_item_id("t", std::string(room + 1, 'k'));
    FAIL() << "an id of 1,024 bytes was composed";
  } catch (const KeyTooLongError& error) {
    EXPECT_NE(std::string(error.what()).find("1023"), std::string::npos) << error.what();
  }
  // Escaping counts: 400 '/' take 1,200 bytes.
  EXPECT_THROW(compose_cosmos_outbox_key_item_id("t", std::string(400, '/')), KeyTooLongError);
}

TEST(CosmosKey, OutboxKeyItemIdRefusesEmptyAndMalformedTerms) {
  EXPECT_THROW(compose_cosmos_outbox_key_item_id("", "k"), InvalidKeyTermError);
  EXPECT_THROW(compose_cosmos_outbox_key_item_id("t", ""), InvalidKeyTermError);
  EXPECT_THROW(compose_cosmos_outbox_key_item_id("t", "\xC3"), InvalidKeyTermError);
}

}  // namespace
}  // namespace docket::keys
