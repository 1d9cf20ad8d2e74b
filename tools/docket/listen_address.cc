#include "listen_address.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "usage_error.h"

namespace docket::tool {
namespace {

[[noreturn]] void refuse_listen(std::string_view text, std::string_view command,
                                std::string_view example, std::string_view why) {
  throw UsageError(std::string(command) + ": --listen '" + std::string(text) + "' " +
                   std::string(why) + "; pass HOST:PORT, e.g. " + std::string(example) +
                   " (port 0 to 65535; 0 picks a free one)");
}

}  // namespace

ListenAddress parse_listen_address(std::string_view text, std::string_view command,
                                   std::string_view example) {
  const std::size_t colon = text.rfind(':');
  if (colon == std::string_view::npos || colon == 0) {
    refuse_listen(text, command, example, "has no HOST:PORT form");
  }
  std::string_view host = text.substr(0, colon);
  const std::string_view port_text = text.substr(colon + 1);
  int port = -1;
  const auto [end, error] =
      std::from_chars(port_text.data(), port_text.data() + port_text.size(), port);
  if (port_text.empty() || error != std::errc() || end != port_text.data() + port_text.size()) {
    refuse_listen(text, command, example, "has a port that is no number");
  }
  if (port < 0 || port > 65535) {
    refuse_listen(text, command, example, "has a port out of range");
  }
  ListenAddress address{.port = port};
  if (host == "localhost") {
    host = "127.0.0.1";
  }
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') {
      refuse_listen(text, command, example, "has an IPv6 address without its closing ']'");
    }
    const std::string bare(host.substr(1, host.size() - 2));
    in6_addr parsed{};
    if (inet_pton(AF_INET6, bare.c_str(), &parsed) != 1) {
      refuse_listen(text, command, example, "has no IPv6 address between its brackets");
    }
    address.loopback = IN6_IS_ADDR_LOOPBACK(&parsed);
  } else {
    const std::string bare(host);
    in_addr parsed{};
    if (inet_pton(AF_INET, bare.c_str(), &parsed) != 1) {
      refuse_listen(text, command, example,
                    "has a host that is no numeric IPv4 address, [IPv6 address] or localhost");
    }
    address.loopback = (ntohl(parsed.s_addr) >> 24) == 127;
  }
  address.host = std::string(host);
  return address;
}

std::optional<std::string> why_cannot_listen(const ListenAddress& address) {
  const bool v6 = address.host.starts_with('[');
  const int fd = ::socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    return "cannot open a socket: " + std::string(std::strerror(errno));
  }
  const int one = 1;
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  const auto port = htons(static_cast<std::uint16_t>(address.port));
  int bound = -1;
  if (v6) {
    sockaddr_in6 in{};
    in.sin6_family = AF_INET6;
    in.sin6_port = port;
    ::inet_pton(AF_INET6, address.host.substr(1, address.host.size() - 2).c_str(), &in.sin6_addr);
    bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&in), sizeof in);
  } else {
    sockaddr_in in{};
    in.sin_family = AF_INET;
    in.sin_port = port;
    ::inet_pton(AF_INET, address.host.c_str(), &in.sin_addr);
    bound = ::bind(fd, reinterpret_cast<const sockaddr*>(&in), sizeof in);
  }
  const int error = bound == 0 ? 0 : errno;
  ::close(fd);
  switch (error) {
    case 0:
      return std::nullopt;
    case EADDRINUSE:
      return "port " + std::to_string(address.port) + " is in use (by another process)";
    case EADDRNOTAVAIL:
      return address.host + " is no address of this machine";
    case EACCES:
      return "port " + std::to_string(address.port) +
             " is privileged (below 1024) and this process may not bind it";
    default:
      return std::string(std::strerror(error));
  }
}

}  // namespace docket::tool
