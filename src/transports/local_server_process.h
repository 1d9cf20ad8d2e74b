// The process of a server on this machine, found by the TCP port it listens on, and
// started again in place: what a broker transport's restarts (the tests' and `docket
// chaos --allow-broker-restart`'s: rabbitmq_local_broker.h, nats_local_server.h) and a
// store server's crashes (`docket chaos --allow-server-restart` on Redis) are made of.
// Linux only: it reads /proc.
//
// Thread-safety: free functions over /proc; each call reads it afresh.
#ifndef DOCKET_TRANSPORTS_LOCAL_SERVER_PROCESS_H_
#define DOCKET_TRANSPORTS_LOCAL_SERVER_PROCESS_H_

#include <sys/types.h>

#include <chrono>
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

// The processes whose parent is `pid` (a server's forked children: Redis's AOF rewrite,
// say), as far as this user may see.
std::vector<pid_t> child_processes(pid_t pid);

// What a process runs in, read from /proc: enough to start its server again in place.
struct ProcessImage {
  pid_t pid = 0;
  std::vector<std::string> argv;         // its command line as /proc shows it
  std::vector<std::string> environment;  // "NAME=value", its own
  std::string directory;                 // its working directory; empty: unreadable
  std::string log;  // the regular file its output went to, appended to; empty: none
};

// The image of `pid`; fields this user may not read are left empty.
ProcessImage read_process_image(pid_t pid);

// Sends `signal` to `pid` and waits until it is gone. Returns false when `timeout`
// passed first. Throws InfrastructureError, naming `who`, when it cannot be signalled.
bool signal_and_wait(pid_t pid, int signal, std::chrono::milliseconds timeout,
                     std::string_view who);

// Starts `argv` in `image`'s working directory and environment, its output appended to
// `image`'s log (or /dev/null), in a session of its own (`setsid -f`: nobody's child, so
// that a process-group stop of the scripts finds it), with no descriptor of this
// process. Returns once setsid has forked. Throws InfrastructureError naming `who`.
void start_detached(const std::vector<std::string>& argv, const ProcessImage& image,
                    std::string_view who);

}  // namespace docket::transports::detail

#endif  // DOCKET_TRANSPORTS_LOCAL_SERVER_PROCESS_H_
