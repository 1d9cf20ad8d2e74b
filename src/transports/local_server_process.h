// The process of a server on this machine, found by the TCP port it listens on: what a
// broker transport's restarts (the tests' and `docket chaos --allow-broker-restart`'s:
// rabbitmq_local_broker.h, nats_local_server.h) start from. Linux only: it reads /proc.
//
// Thread-safety: free functions over /proc; each call reads it afresh.
#ifndef DOCKET_TRANSPORTS_LOCAL_SERVER_PROCESS_H_
#define DOCKET_TRANSPORTS_LOCAL_SERVER_PROCESS_H_

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

namespace docket::transports::detail {

// Whether `host` names this machine's loopback interface (localhost, ::1, 127.0.0.0/8).
bool is_loopback_host(std::string_view host);

struct ListeningProcesses {
  bool listening = false;        // a socket listens on the port (IPv4 or IPv6, any address)
  std::vector<pid_t> pids;       // the processes holding it, as far as this user may see
  bool some_unreadable = false;  // a process whose descriptors this user may not read
};

// Who listens on TCP `port`, from /proc/net/tcp{,6} and /proc/<pid>/fd.
ListeningProcesses processes_listening_on(int port);

// /proc/<pid>/<name> ("cmdline", "environ", "comm"), whole; empty when unreadable.
std::string read_process_file(pid_t pid, std::string_view name);

// A NUL-separated /proc file (cmdline, environ) split into its entries.
std::vector<std::string> split_nul(std::string_view text);

// Whether `pid` runs (a zombie counts as gone).
bool process_running(pid_t pid);

}  // namespace docket::transports::detail

#endif  // DOCKET_TRANSPORTS_LOCAL_SERVER_PROCESS_H_
