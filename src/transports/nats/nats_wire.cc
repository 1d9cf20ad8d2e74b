#include "transports/nats/nats_wire.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "docket/core/error.h"
#include "docket/transports/cloudevents.h"
#include "transports/nats/nats_url.h"

namespace docket::nats::detail {
namespace {

constexpr std::string_view kCodecContentType = "content-type";

bool equals_ci(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

void check_header(const MessageHeader& header) {
  const bool bad_name =
      header.name.empty() || std::any_of(header.name.begin(), header.name.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte <= 0x20 || byte == 0x7f || c == ':';
      });
  if (bad_name)
    throw InvalidInputError("header name '" + header.name +
                            "' cannot travel on NATS (empty, or holding whitespace, a control "
                            "character or ':'); rename it");
  if (header.value.find_first_of("\r\n") != std::string::npos)
    throw InvalidInputError("the value of header '" + header.name +
                            "' holds a line break, which NATS headers cannot carry; encode it");
}

}  // namespace

bool is_nats_header(std::string_view name) {
  return name.size() >= 5 && equals_ci(name.substr(0, 5), "Nats-");
}

MsgPtr make_message(std::string_view subject, std::string_view data,
                    const std::vector<MessageHeader>& headers) {
  const std::string subject_text(subject);
  natsMsg* raw = nullptr;
  const natsStatus status = natsMsg_Create(&raw, subject_text.c_str(), nullptr, data.data(),
                                           static_cast<int>(data.size()));
  MsgPtr message(raw);
  if (status != NATS_OK)
    throw InvalidInputError("a NATS message to '" + subject_text +
                            "' could not be built: " + natsStatus_GetText(status));
  for (const MessageHeader& header : headers) {
    check_header(header);
    if (natsMsgHeader_Add(raw, header.name.c_str(), header.value.c_str()) != NATS_OK)
      throw InvalidInputError("header '" + header.name + "' could not be added to a NATS message");
  }
  return message;
}

MsgPtr to_nats_message(const TransportMessage& message, std::string_view stream) {
  if (!is_publish_subject(message.destination))
    throw InvalidInputError("the destination '" + message.destination +
                            "' is not a NATS subject one may publish to (dot-separated tokens, "
                            "no whitespace, no wildcard '*' or '>'); name one");
  std::vector<MessageHeader> headers = to_cloudevents_headers(message, kCloudEventsNatsPrefix);
  for (MessageHeader& header : headers) {
    if (is_nats_header(header.name))
      throw InvalidInputError("header '" + header.name +
                              "' is named as JetStream's own headers (Nats-...); rename it");
    if (header.name == kCodecContentType)
      header.name = std::string(kContentTypeHeader);
  }
  headers.push_back({std::string(kMsgIdHeader), message.envelope.message_id});
  headers.push_back({std::string(kExpectedStreamHeader), std::string(stream)});
  return make_message(message.destination, message.envelope.payload, headers);
}

std::vector<MessageHeader> headers_of(natsMsg* message) {
  std::vector<MessageHeader> headers;
  const char** keys = nullptr;
  int count = 0;
  if (natsMsgHeader_Keys(message, &keys, &count) != NATS_OK)
    return headers;
  for (int i = 0; i < count; ++i) {
    const char** values = nullptr;
    int value_count = 0;
    if (natsMsgHeader_Values(message, keys[i], &values, &value_count) == NATS_OK) {
      for (int v = 0; v < value_count; ++v)
        headers.push_back({keys[i], values[v]});
      std::free(static_cast<void*>(values));
    }
  }
  std::free(static_cast<void*>(keys));
  return headers;
}

TransportMessage from_nats_message(natsMsg* message) {
  std::vector<MessageHeader> headers;
  for (MessageHeader& header : headers_of(message)) {
    if (is_nats_header(header.name))
      continue;
    if (equals_ci(header.name, kContentTypeHeader))
      header.name = std::string(kCodecContentType);
    headers.push_back(std::move(header));
  }
  const char* data = natsMsg_GetData(message);
  return from_cloudevents_headers(
      headers,
      std::string(data == nullptr ? "" : data,
                  static_cast<std::size_t>(natsMsg_GetDataLength(message))),
      natsMsg_GetSubject(message), kCloudEventsNatsPrefix);
}

}  // namespace docket::nats::detail
