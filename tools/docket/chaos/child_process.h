// One child process of `docket chaos`: this same binary started with other arguments,
// its standard output and error appended to a log file, stopped by a signal and reaped.
//
// Invariant: a ChildProcess that started a process reaps it before it is destroyed: the
// destructor kills (SIGKILL) and waits for one still running, so no zombie and no
// orphan outlives the object.
//
// Thread-safety: one owner thread.
#ifndef DOCKET_TOOLS_DOCKET_CHAOS_CHILD_PROCESS_H_
#define DOCKET_TOOLS_DOCKET_CHAOS_CHILD_PROCESS_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace docket::tool {

// How a child ended: its exit status, or the signal that killed it.
struct ChildExit {
  std::optional<int> exit_code;
  std::optional<int> signal;

  // "exit 1", "signal 9 (Killed)".
  std::string describe() const;
};

class ChildProcess {
 public:
  // Starts `args` (args[0] is the program's path), its stdin /dev/null and its stdout
  // and stderr appended to `log_path`, its environment this one's plus `extra_env`
  // ("NAME=value"). Throws InfrastructureError when it cannot be started.
  ChildProcess(const std::vector<std::string>& args, const std::string& log_path,
               const std::vector<std::string>& extra_env);
  ~ChildProcess();
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  pid_t pid() const noexcept { return pid_; }

  // The exit when the child has ended (reaping it), nullopt while it runs.
  std::optional<ChildExit> poll();
  // Sends `signal` (when still running) and waits for the end.
  ChildExit stop(int signal);

 private:
  ChildExit wait_blocking();

  pid_t pid_ = -1;
  std::optional<ChildExit> exit_;
};

// The path of the running executable (/proc/self/exe), to start it again.
std::string current_executable();

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CHAOS_CHILD_PROCESS_H_
