#include "nats_raw_publisher.h"

#include <algorithm>

#include "docket/core/error.h"
#include "transports/nats/nats_topology.h"
#include "transports/nats/nats_wire.h"

namespace docket::nats::detail {
namespace {

ServerUrl publishing_url(std::string_view text) {
  ServerUrl url = parse_server_url(text);
  if (url.stream.empty()) {
    throw ConfigurationError("NATS JetStream " + printable(url) +
                             ": the URL names no stream; add ?stream=<name>&subject=<subjects>, "
                             "the stream the bench publishes to");
  }
  return url;
}

}  // namespace

RawPublisher::RawPublisher(std::string_view url, std::span<const TransportMessage> messages)
    : connection_(
          std::make_unique<Connection>(publishing_url(url), PublishAckHandler{&on_ack, this})) {
  ensure_stream(*connection_);
  messages_.reserve(messages.size());
  for (const TransportMessage& message : messages) {
    const MsgPtr encoded = to_nats_message(message, connection_->url().stream);
    const char* data = natsMsg_GetData(encoded.get());
    messages_.push_back(
        {natsMsg_GetSubject(encoded.get()),
         std::string(data == nullptr ? "" : data,
                     static_cast<std::size_t>(natsMsg_GetDataLength(encoded.get()))),
         headers_of(encoded.get())});
    Wire& wire = messages_.back();
    wire.id_header = static_cast<std::size_t>(
        std::find_if(wire.headers.begin(), wire.headers.end(),
                     [](const MessageHeader& h) { return h.name == kMsgIdHeader; }) -
        wire.headers.begin());
  }
}

RawPublisher::~RawPublisher() {
  connection_.reset();
}

void RawPublisher::on_ack(jsCtx*, natsMsg* message, jsPubAck* ack, jsPubAckErr* error,
                          void* closure) {
  auto* publisher = static_cast<RawPublisher*>(closure);
  if (ack == nullptr && error != nullptr) {
    const std::lock_guard lock(publisher->mutex_);
    if (publisher->first_error_.empty())
      publisher->first_error_ =
          std::string("message to '") + natsMsg_GetSubject(message) +
          "': " + (error->ErrText != nullptr ? error->ErrText : natsStatus_GetText(error->Err));
  } else {
    publisher->acknowledged_.fetch_add(1, std::memory_order_relaxed);
  }
  natsMsg_Destroy(message);
}

void RawPublisher::fail(const std::string& problem) const {
  throw InfrastructureError("NATS server " + connection_->server() +
                            " (bench raw side): " + problem);
}

void RawPublisher::publish(bench::ItemRange items, std::size_t batch) {
  if (items.end > messages_.size() || batch == 0) {
    fail("asked to publish messages " + std::to_string(items.begin) + ".." +
         std::to_string(items.end) + " of " + std::to_string(messages_.size()) + " in batches of " +
         std::to_string(batch));
  }
  jsPubOptions wait;
  jsPubOptions_Init(&wait);
  wait.MaxWait = connection_->url().timeout.count();
  for (std::size_t first = items.begin; first < items.end; first += batch) {
    const std::size_t last = std::min(items.end, first + batch);
    const std::uint64_t before = acknowledged_.load();
    for (std::size_t i = first; i < last; ++i) {
      Wire& wire = messages_[i];
      // The bench publishes the same messages once per batch size: each publish after the
      // first gets an id of its own, or the stream's duplicate window would drop it (and
      // the raw side would measure duplicates, which the stream does not store).
      if (wire.published++ > 0 && wire.id_header < wire.headers.size()) {
        std::string& id = wire.headers[wire.id_header].value;
        id = id.substr(0, id.find('/')) + "/" + std::to_string(wire.published);
      }
      natsMsg* message = nullptr;
      natsStatus status = natsMsg_Create(&message, wire.subject.c_str(), nullptr, wire.data.data(),
                                         static_cast<int>(wire.data.size()));
      for (const MessageHeader& header : wire.headers) {
        if (status == NATS_OK)
          status = natsMsgHeader_Add(message, header.name.c_str(), header.value.c_str());
      }
      if (status == NATS_OK)
        status = js_PublishMsgAsync(connection_->jetstream(), &message, nullptr);
      natsMsg_Destroy(message);  // null when the library took it
      if (status != NATS_OK)
        fail("publishing to '" + wire.subject + "' failed: " + status_text(status));
    }
    const natsStatus completed = js_PublishAsyncComplete(connection_->jetstream(), &wait);
    ++confirm_waits_;
    {
      const std::lock_guard lock(mutex_);
      if (!first_error_.empty())
        fail("the stream refused a " + first_error_);
    }
    if (completed != NATS_OK || acknowledged_.load() - before < last - first)
      fail(std::to_string(last - first - (acknowledged_.load() - before)) + " of " +
           std::to_string(last - first) + " messages were not acknowledged within " +
           std::to_string(wait.MaxWait) + " ms (the URL's timeout): " + status_text(completed));
    confirmed_ += last - first;
  }
}

}  // namespace docket::nats::detail
