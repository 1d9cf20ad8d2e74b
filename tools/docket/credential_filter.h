// What keeps the credentials the tool was given out of everything it prints: the
// credentials of every URL on its command line and in its environment (where a chaos
// worker reads its URLs, and a proxy's URL may carry a password), found by the one masking rule
// (src/core/url_credentials.h), are replaced by "***" in whatever reaches std::cout and
// std::cerr. User info alone counts as a credential unless the URL's store provider
// prints it (PostgreSQL's user name): a token, where a scheme reads one there.
//
// Each provider and transport prints its URLs masked already; this is the tool's net
// under them, for text the tool did not compose: a library's message that echoes a URL
// as given, a log line quoting a server's reply. A credential shorter than
// kShortestFilteredCredential is not filtered (replacing two letters everywhere would
// garble every message); the masking rule still masks it wherever a URL is printed.
//
// Invariant: while a CredentialFilter lives, no line written to std::cout or std::cerr
// through their stream buffers holds a filtered credential, raw or percent-decoded.
// Output is held back until a newline or a flush, then filtered and passed on.
//
// Thread-safety: construct and destroy it on the main thread, before any other thread
// writes to the streams and after they stop; while it lives, the streams are as safe to
// share as std::cout and std::cerr are without synchronisation (not at all).
#ifndef DOCKET_TOOLS_DOCKET_CREDENTIAL_FILTER_H_
#define DOCKET_TOOLS_DOCKET_CREDENTIAL_FILTER_H_

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace docket::tool {

inline constexpr std::size_t kShortestFilteredCredential = 4;

// The credentials of the URLs in `arguments` and in the environment (any argument or
// variable holding "://": "--store=URL" too), each also in its percent-decoded form,
// kShortestFilteredCredential bytes or more; longest first, so that one containing
// another is replaced whole.
std::vector<std::string> credentials_given(std::span<char* const> arguments);

// `text` with every one of `credentials` replaced by "***".
std::string without_credentials(std::string_view text, std::span<const std::string> credentials);

class CredentialFilter {
 public:
  // Filters std::cout and std::cerr until destroyed; does nothing when `credentials`
  // is empty.
  explicit CredentialFilter(std::vector<std::string> credentials);
  ~CredentialFilter();
  CredentialFilter(const CredentialFilter&) = delete;
  CredentialFilter& operator=(const CredentialFilter&) = delete;

 private:
  class FilteringBuffer;
  std::vector<std::string> credentials_;
  std::unique_ptr<FilteringBuffer> out_;
  std::unique_ptr<FilteringBuffer> err_;
};

}  // namespace docket::tool

#endif  // DOCKET_TOOLS_DOCKET_CREDENTIAL_FILTER_H_
