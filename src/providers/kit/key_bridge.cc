#include "providers/kit/key_bridge.h"

#include "docket/keys/inbox_key.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"

namespace docket::kit {
namespace {

keys::StreamTerms terms_of(const StreamId& stream) {
  return {stream.tenant().value(), stream.aggregate_type(), stream.aggregate_id()};
}

keys::SagaTerms terms_of(const SagaId& saga) {
  return {saga.tenant().value(), saga.saga_type(), saga.saga_id()};
}

}  // namespace

keys::Key inbox_entry_id(keys::Provider provider, const ClaimKey& key) {
  return keys::compose_inbox_entry_id(provider,
                                      {key.tenant().value(), key.message_id(), key.handler_type()});
}

keys::Key inbox_dedup_id(keys::Provider provider, const DedupKey& key) {
  return keys::compose_inbox_entry_id(provider, {key.tenant, key.message_id, key.consumer_id});
}

keys::Key stream_key(keys::Provider provider, const StreamId& stream) {
  return keys::compose_stream_key(provider, terms_of(stream));
}

keys::Key event_document_id(keys::Provider provider, const StreamId& stream, std::int64_t version) {
  return keys::compose_event_document_id(provider, terms_of(stream), version);
}

keys::Key snapshot_key(keys::Provider provider, const StreamId& stream) {
  return keys::compose_snapshot_key(provider, terms_of(stream));
}

keys::Key saga_key(keys::Provider provider, const SagaId& saga) {
  return keys::compose_saga_key(provider, terms_of(saga));
}

keys::Key saga_type_key(keys::Provider provider, const SagaId& saga) {
  return keys::compose_saga_type_key(provider, terms_of(saga));
}

}  // namespace docket::kit
