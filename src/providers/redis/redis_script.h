// A Lua script run on the Redis server by its SHA1 (EVALSHA), loaded (SCRIPT LOAD) on
// first use and again when the server answers NOSCRIPT (it restarted, or SCRIPT FLUSH):
// one round trip per run in the steady state, the source sent only when needed.
//
// Invariant: a NOSCRIPT reply means the script did not run, so the run is retried
// once after loading it, whatever the command's replay (in a pipeline, only the runs
// that got NOSCRIPT: the others ran).
//
// Thread-safety: run() may be called from many threads at once.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_SCRIPT_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_SCRIPT_H_

#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "providers/redis/redis_pool.h"

namespace docket::redis::detail {

class Script {
 public:
  // `name` names the script in errors ("the inbox commit script").
  Script(std::string_view name, std::string_view source);

  // EVALSHA sha 0 args...: the script's reply (an error reply is thrown, naming the
  // script and the server).
  Reply run(Pool& pool, std::vector<std::string> args, Replay replay);

  // One run per element of `runs`, independent of each other, pipelined in one round
  // trip (a second for the runs that found the script unloaded); the replies in order.
  std::vector<Reply> run_all(Pool& pool, const std::vector<std::vector<std::string>>& runs,
                             Replay replay);

 private:
  std::string sha(Pool& pool, bool reload);

  std::string name_;
  std::string source_;
  std::mutex mutex_;
  std::string sha_;
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_SCRIPT_H_
