// The --listen of the commands that serve HTTP (`docket dashboard`, `docket metrics`):
// the address to listen on, HOST:PORT, checked before anything is opened. HOST is a numeric IPv4
// address (127.0.0.1, 0.0.0.0), a bracketed IPv6 address ([::1], [::]) or "localhost" (127.0.0.1);
// PORT is 0 (any free port, printed once listening) to 65535. No name is resolved: what the
// dashboard binds to is what the command line says.
//
// Invariant: a ListenAddress's host is numeric, in the form civetweb's listening_ports
// takes, and `loopback` is true exactly when every address it binds is this machine's
// own (127.0.0.0/8, ::1).
//
// Thread-safety: values and free functions.
#ifndef DOCKET_TOOLS_DOCKET_LISTEN_ADDRESS_H_
#define DOCKET_TOOLS_DOCKET_LISTEN_ADDRESS_H_

#include <optional>
#include <string>
#include <string_view>

namespace docket::tool {

struct ListenAddress {
  std::string host{};  // "127.0.0.1", "[::1]"
  int port = 0;
  bool loopback = false;
};

// Throws UsageError (exit 2), starting with `command` ("dashboard") and naming --listen
// and what it takes, with `example` ("127.0.0.1:8088"), for text that is no such
// address, or a port outside 0..65535.
ListenAddress parse_listen_address(std::string_view text, std::string_view command,
                                   std::string_view example);

// Why `address` cannot be listened on now, found by binding a socket of its own to it
// (with SO_REUSEADDR, as an HTTP server does) and closing it: "port 8088 is in use (by
// another process)", "127.0.0.2 is no address of this machine", or the system's words;
// nullopt when it can. For a message naming the cause after a server's generic refusal.
std::optional<std::string> why_cannot_listen(const ListenAddress& address);

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_LISTEN_ADDRESS_H_
