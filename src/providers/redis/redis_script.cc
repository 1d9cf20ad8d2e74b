// A Lua script run by its SHA1 (redis_script.h).
#include "providers/redis/redis_script.h"

#include <optional>
#include <utility>

namespace docket::redis::detail {

Script::Script(std::string_view name, std::string_view source) : name_(name), source_(source) {}

std::string Script::sha(Pool& pool, bool reload) {
  std::lock_guard lock(mutex_);
  if (sha_.empty() || reload) {
    const Reply reply = pool.run({"SCRIPT", "LOAD", source_}, Replay::kSafe);
    if (reply.is_error()) {
      throw InfrastructureError("Redis at " + pool.url().server() + " refused to load " + name_ +
                                ": " + std::string(reply.text()));
    }
    sha_ = *reply.string();
  }
  return sha_;
}

Reply Script::run(Pool& pool, std::vector<std::string> args, Replay replay) {
  Command command;
  command.reserve(args.size() + 3);
  command.emplace_back("EVALSHA");
  command.emplace_back();
  command.emplace_back("0");
  for (std::string& arg : args) {
    command.push_back(std::move(arg));
  }
  for (int attempt = 0;; ++attempt) {
    command[1] = sha(pool, attempt > 0);
    Reply reply = pool.run(command, replay);
    if (reply.is_error() && reply.text().starts_with("NOSCRIPT") && attempt == 0) {
      continue;
    }
    if (reply.is_error()) {
      throw InfrastructureError("Redis at " + pool.url().server() + " failed " + name_ + ": " +
                                std::string(reply.text()));
    }
    return reply;
  }
}

std::vector<Reply> Script::run_all(Pool& pool, const std::vector<std::vector<std::string>>& runs,
                                   Replay replay) {
  const auto commands_for = [&](const std::vector<std::size_t>& which, const std::string& sha) {
    std::vector<Command> commands;
    commands.reserve(which.size());
    for (const std::size_t i : which) {
      Command command = {"EVALSHA", sha, "0"};
      command.insert(command.end(), runs[i].begin(), runs[i].end());
      commands.push_back(std::move(command));
    }
    return commands;
  };
  std::vector<std::size_t> pending(runs.size());
  for (std::size_t i = 0; i < runs.size(); ++i) {
    pending[i] = i;
  }
  std::vector<std::optional<Reply>> replies(runs.size());
  for (int attempt = 0; !pending.empty(); ++attempt) {
    std::vector<Reply> got = pool.pipeline(commands_for(pending, sha(pool, attempt > 0)), replay);
    std::vector<std::size_t> unloaded;
    for (std::size_t j = 0; j < got.size(); ++j) {
      if (got[j].is_error() && got[j].text().starts_with("NOSCRIPT") && attempt == 0) {
        unloaded.push_back(pending[j]);
        continue;
      }
      if (got[j].is_error()) {
        throw InfrastructureError("Redis at " + pool.url().server() + " failed " + name_ + ": " +
                                  std::string(got[j].text()));
      }
      replies[pending[j]].emplace(std::move(got[j]));
    }
    pending = std::move(unloaded);
  }
  std::vector<Reply> out;
  out.reserve(replies.size());
  for (std::optional<Reply>& reply : replies) {
    out.push_back(std::move(*reply));
  }
  return out;
}

}  // namespace docket::redis::detail
