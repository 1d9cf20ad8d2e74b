// An application header of a message: a name and a value carried verbatim from the
// producer (OutboxMessage::headers) through the transport to its consumers.
//
// Thread-safety: a plain value type.
#ifndef DOCKET_CORE_MESSAGE_HEADER_H_
#define DOCKET_CORE_MESSAGE_HEADER_H_

#include <string>

namespace docket {

struct MessageHeader {
  std::string name;
  std::string value;

  friend bool operator==(const MessageHeader&, const MessageHeader&) = default;
};

}  // namespace docket

#endif  // DOCKET_CORE_MESSAGE_HEADER_H_
