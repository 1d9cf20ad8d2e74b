#include "docket_outbox_side.h"

#include <algorithm>
#include <utility>

namespace docket::bench {
namespace {

RelayOptions relay_options(std::size_t batch) {
  RelaySettings settings;
  settings.batch_size = batch;
  return RelayOptions(settings);
}

}  // namespace

DocketOutboxSession::DocketOutboxSession(OutboxStore& store, Transport& transport,
                                         std::size_t batch, const std::string& source)
    : store_(store),
      outbox_(store),
      relay_(store, transport, relay_options(batch)),
      message_{.event_type = std::string(kOutboxEventType),
               .payload = std::string(kOutboxPayload),
               .source = source} {}

void DocketOutboxSession::stage(std::size_t) {
  auto unit = store_.begin();
  outbox_.stage(unit->handler_transaction(), message_);
  unit->commit();
}

void DocketOutboxSession::fill(std::size_t, std::size_t count) {
  auto unit = store_.begin();
  for (std::size_t i = 0; i < count; ++i) {
    outbox_.stage(unit->handler_transaction(), message_);
  }
  unit->commit();
}

RelayTally DocketOutboxSession::relay_pass() {
  const RelayPass pass = relay_.run_once();
  return RelayTally{.passes = 1,
                    .claimed = pass.claimed,
                    .published = pass.published,
                    .not_done = pass.claimed - pass.published};
}

}  // namespace docket::bench
