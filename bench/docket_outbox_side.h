// docket's side of `docket bench outbox`: the public API. Staging is what a producer
// does: OutboxStore::begin(), Outbox::stage through the unit's transaction,
// commit(); relaying is Relay::run_once() through CountingTransport, which records
// each message id in a PublishLog and delivers nothing.
//
// Thread-safety: the store, outbox and transport are shared; a session (with its own
// Relay) belongs to one thread.
#ifndef DOCKET_BENCH_DOCKET_OUTBOX_SIDE_H_
#define DOCKET_BENCH_DOCKET_OUTBOX_SIDE_H_

#include <memory>
#include <string>

#include "docket/outbox/outbox.h"
#include "docket/outbox/relay.h"
#include "docket/transports/transport.h"
#include "outbox_session.h"

namespace docket::bench {

class CountingTransport final : public Transport {
 public:
  explicit CountingTransport(PublishLog& log) : log_(log) {}
  void publish(const TransportMessage& message) override {
    log_.record(message.envelope.message_id);
  }

 private:
  PublishLog& log_;
};

class DocketOutboxSession final : public OutboxSession {
 public:
  // `source`: the run id every staged message carries.
  DocketOutboxSession(OutboxStore& store, Transport& transport, std::size_t batch,
                      const std::string& source);

  void stage(std::size_t message) override;
  void fill(std::size_t first, std::size_t count) override;
  RelayTally relay_pass() override;

 private:
  OutboxStore& store_;
  Outbox outbox_;
  Relay relay_;
  OutboxMessage message_;
};

}  // namespace docket::bench

#endif  // DOCKET_BENCH_DOCKET_OUTBOX_SIDE_H_
