// How a broker's transport joins open_transport() (docket/transports/open_transport.h):
// its folder, src/transports/<name>/, defines
//
//   const docket::transports::TransportRegistration& docket::<name>::transport_registration();
//
// in <name>_registration.cc and calls docket_transport_built(<name>) in its
// CMakeLists.txt; the generated list (builtin_transport_list.h) does the rest. Nothing
// else names the transport.
//
// Thread-safety: registrations are immutable.
#ifndef DOCKET_TRANSPORTS_TRANSPORT_REGISTRATION_H_
#define DOCKET_TRANSPORTS_TRANSPORT_REGISTRATION_H_

#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "docket/transports/transport.h"

namespace docket::transports {

struct TransportRegistration {
  std::string_view name{};                      // its folder: "rabbitmq"
  std::span<const std::string_view> schemes{};  // the URL schemes it opens: "amqp"
  std::string_view url_form{};                  // one URL of the form, for error messages
  std::unique_ptr<Transport> (*open)(std::string_view url) = nullptr;
};

// The transport of this build that opens `url`, by its scheme; nullptr when none does
// (open_transport.cc). For the tool's parts a transport lends (bench, chaos), found by
// the same URL the user gave.
const TransportRegistration* find_transport(std::string_view url);

}  // namespace docket::transports

#endif  // DOCKET_TRANSPORTS_TRANSPORT_REGISTRATION_H_
