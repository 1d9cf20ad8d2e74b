#include "child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

#include "docket/core/error.h"

extern char** environ;

namespace docket::tool {
namespace {

ChildExit exit_of(int status) {
  if (WIFEXITED(status)) {
    return {.exit_code = WEXITSTATUS(status), .signal = std::nullopt};
  }
  return {.exit_code = std::nullopt, .signal = WTERMSIG(status)};
}

// posix_spawn's file actions, released on every path.
class FileActions {
 public:
  FileActions() { posix_spawn_file_actions_init(&actions_); }
  ~FileActions() { posix_spawn_file_actions_destroy(&actions_); }
  FileActions(const FileActions&) = delete;
  FileActions& operator=(const FileActions&) = delete;
  posix_spawn_file_actions_t* get() noexcept { return &actions_; }

 private:
  posix_spawn_file_actions_t actions_;
};

}  // namespace

std::string ChildExit::describe() const {
  if (exit_code) {
    return "exit " + std::to_string(*exit_code);
  }
  return "signal " + std::to_string(signal.value_or(0)) + " (" + strsignal(signal.value_or(0)) +
         ")";
}

ChildProcess::ChildProcess(const std::vector<std::string>& args, const std::string& log_path,
                           const std::vector<std::string>& extra_env) {
  std::vector<char*> argv;
  for (const std::string& arg : args) {
    argv.push_back(const_cast<char*>(arg.c_str()));
  }
  argv.push_back(nullptr);
  std::vector<char*> envp;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    envp.push_back(*entry);
  }
  for (const std::string& entry : extra_env) {
    envp.push_back(const_cast<char*>(entry.c_str()));
  }
  envp.push_back(nullptr);

  FileActions actions;
  posix_spawn_file_actions_addopen(actions.get(), STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(actions.get(), STDOUT_FILENO, log_path.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0600);
  posix_spawn_file_actions_adddup2(actions.get(), STDOUT_FILENO, STDERR_FILENO);
  const int rc =
      posix_spawn(&pid_, args.at(0).c_str(), actions.get(), nullptr, argv.data(), envp.data());
  if (rc != 0) {
    pid_ = -1;
    throw InfrastructureError("chaos: could not start " + args.at(0) + ": " + std::strerror(rc));
  }
}

ChildProcess::~ChildProcess() {
  if (pid_ > 0 && !exit_) {
    kill(pid_, SIGKILL);
    int status = 0;
    // Only EINTR can interrupt the wait for a child of ours that was just killed.
    while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
  }
}

std::optional<ChildExit> ChildProcess::poll() {
  if (exit_) {
    return exit_;
  }
  int status = 0;
  const pid_t rc = waitpid(pid_, &status, WNOHANG);
  if (rc == pid_) {
    exit_ = exit_of(status);
  } else if (rc < 0 && errno != EINTR) {
    throw InfrastructureError(std::string("chaos: waitpid failed: ") + std::strerror(errno));
  }
  return exit_;
}

ChildExit ChildProcess::stop(int signal) {
  if (exit_) {
    return *exit_;
  }
  kill(pid_, signal);
  return wait_blocking();
}

ChildExit ChildProcess::wait_blocking() {
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0) {
    if (errno != EINTR) {
      throw InfrastructureError(std::string("chaos: waitpid failed: ") + std::strerror(errno));
    }
  }
  exit_ = exit_of(status);
  return *exit_;
}

std::string current_executable() {
  std::error_code error;
  const std::filesystem::path path = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) {
    throw InfrastructureError("chaos: cannot find the docket executable (/proc/self/exe): " +
                              error.message());
  }
  return path.string();
}

}  // namespace docket::tool
