// One Redis reply, owned: a RESP2 reply hiredis parsed (redisReply), freed exactly
// once with the Reply, and read through checked accessors that name the command and
// the server when the reply is not of the type docket expected (a reply docket did not
// expect is an InfrastructureError, never undefined behaviour).
//
// Thread-safety: a Reply belongs to one thread; a const Reply may be read from many.
#ifndef DOCKET_PROVIDERS_REDIS_REDIS_REPLY_H_
#define DOCKET_PROVIDERS_REDIS_REDIS_REPLY_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct redisReply;

namespace docket::redis::detail {

class Reply {
 public:
  // Takes ownership of `reply` (non-null), read by the command `command` sent to
  // `server` ("127.0.0.1:6379/0"), which accessors name in their errors.
  Reply(redisReply* reply, std::string command, std::string server);

  bool is_error() const noexcept;
  bool is_nil() const noexcept;
  // The error's text (is_error()), the status or string's bytes.
  std::string_view text() const;
  // An integer reply; throws InfrastructureError for any other type.
  long long integer() const;
  // A bulk string, or nullopt for nil; throws for any other type.
  std::optional<std::string> string() const;
  // An array's length and its element `i` as a view (not owned); throws for any other
  // type or an index beyond it.
  std::size_t size() const;
  const redisReply& element(std::size_t i) const;
  // Element i of an array as a bulk string (nullopt for nil) or integer.
  std::optional<std::string> string_at(std::size_t i) const;
  long long integer_at(std::size_t i) const;
  // Element i of an array, itself an array of bulk strings (SCAN's keys, ZSCAN's
  // members and scores), as strings.
  std::vector<std::string> strings_at(std::size_t i) const;
  // The reply, an array of bulk strings (HGETALL's fields and values), as strings; an
  // error reply throws as ok() does.
  std::vector<std::string> strings() const;

  // Throws InfrastructureError naming the command, the server and the error when the
  // reply is an error.
  const Reply& ok() const;

  const std::string& command() const noexcept { return command_; }

 private:
  [[noreturn]] void unexpected(std::string_view wanted) const;

  struct Free {
    void operator()(redisReply* reply) const noexcept;
  };
  std::unique_ptr<redisReply, Free> reply_;
  std::string command_;
  std::string server_;
};

}  // namespace docket::redis::detail

#endif  // DOCKET_PROVIDERS_REDIS_REDIS_REPLY_H_
