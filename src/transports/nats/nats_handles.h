// Owning handles of the NATS C client's objects: each destroys its object with the
// library's own destroy function, exactly once, so that no path through docket's code
// leaks a connection, a subscription or a message.
//
//   OptionsPtr options = make_options();          // natsOptions_Create
//   ConnectionPtr connection(raw);                // natsConnection_Destroy (closes)
//   MsgPtr message(raw);                          // natsMsg_Destroy
//
// Invariant: a handle is null or owns its object; moving one leaves the source null.
// Order matters where the client requires it: a subscription and a JetStream context
// are destroyed before their connection (their owners declare them after it).
//
// Thread-safety: as std::unique_ptr; the objects themselves are as the C client says
// (a connection and a JetStream context are thread-safe, a message is not).
#ifndef DOCKET_TRANSPORTS_NATS_NATS_HANDLES_H_
#define DOCKET_TRANSPORTS_NATS_NATS_HANDLES_H_

#include <nats/nats.h>

#include <memory>

namespace docket::nats::detail {

template <typename T, void (*Destroy)(T*)>
struct Destroyer {
  void operator()(T* object) const noexcept { Destroy(object); }
};

using OptionsPtr = std::unique_ptr<natsOptions, Destroyer<natsOptions, &natsOptions_Destroy>>;
using ConnectionPtr =
    std::unique_ptr<natsConnection, Destroyer<natsConnection, &natsConnection_Destroy>>;
using JetStreamPtr = std::unique_ptr<jsCtx, Destroyer<jsCtx, &jsCtx_Destroy>>;
using MsgPtr = std::unique_ptr<natsMsg, Destroyer<natsMsg, &natsMsg_Destroy>>;
using SubscriptionPtr =
    std::unique_ptr<natsSubscription, Destroyer<natsSubscription, &natsSubscription_Destroy>>;
using StreamInfoPtr = std::unique_ptr<jsStreamInfo, Destroyer<jsStreamInfo, &jsStreamInfo_Destroy>>;
using ConsumerInfoPtr =
    std::unique_ptr<jsConsumerInfo, Destroyer<jsConsumerInfo, &jsConsumerInfo_Destroy>>;
using MetaDataPtr =
    std::unique_ptr<jsMsgMetaData, Destroyer<jsMsgMetaData, &jsMsgMetaData_Destroy>>;

// A natsMsgList filled by a fetch: destroys the messages still in it, and the list.
class MsgList {
 public:
  MsgList() = default;
  ~MsgList() { natsMsgList_Destroy(&list_); }
  MsgList(const MsgList&) = delete;
  MsgList& operator=(const MsgList&) = delete;

  natsMsgList* get() noexcept { return &list_; }
  int size() const noexcept { return list_.Count; }
  // Takes message `i` out of the list (the list no longer destroys it).
  MsgPtr take(int i) noexcept {
    MsgPtr taken(list_.Msgs[i]);
    list_.Msgs[i] = nullptr;
    return taken;
  }

 private:
  natsMsgList list_{};
};

}  // namespace docket::nats::detail

#endif  // DOCKET_TRANSPORTS_NATS_NATS_HANDLES_H_
