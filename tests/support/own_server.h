// A throwaway server of a test's own: started by scripts/<name>-start.sh with the
// settings given (its directory and port, in the scripts' environment variables) and
// stopped by scripts/<name>-stop.sh, by PID, with the object. For tests that crash or
// restart their server, which the shared test servers must never be.
//
// Thread-safety: construct and destroy on one thread; url() is a constant.
#ifndef DOCKET_TESTS_SUPPORT_OWN_SERVER_H_
#define DOCKET_TESTS_SUPPORT_OWN_SERVER_H_

#include <functional>
#include <string>
#include <string_view>

namespace docket::testing {

class OwnServer {
 public:
  // `scripts`: the scripts' prefix ("pg", "rabbitmq"); `settings`: "NAME=value ..."
  // prefixed to both commands. Throws std::runtime_error with the script's output when
  // the start fails.
  OwnServer(std::string_view scripts, std::string settings);
  // The same on `ports` consecutive loopback ports free when it starts
  // (free_loopback_port_run), `settings_of(first port)` its settings. A port is free when
  // picked and taken when the server binds it, so a parallel test may take it in
  // between: a start that fails with the address in use is stopped and tried again on
  // other ports, at most kPortAttempts times.
  OwnServer(std::string_view scripts, int ports,
            const std::function<std::string(int first_port)>& settings_of);
  static constexpr int kPortAttempts = 3;
  ~OwnServer();
  OwnServer(const OwnServer&) = delete;
  OwnServer& operator=(const OwnServer&) = delete;

  // The URL the start script printed, without its newline.
  const std::string& url() const noexcept { return url_; }

 private:
  std::string run(std::string_view script) const;

  std::string scripts_;
  std::string settings_;
  std::string url_;
};

}  // namespace docket::testing

#endif  // DOCKET_TESTS_SUPPORT_OWN_SERVER_H_
