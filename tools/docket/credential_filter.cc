#include "credential_filter.h"

#include <algorithm>
#include <iostream>
#include <streambuf>

#include "core/url_credentials.h"
#include "core/url_text.h"
#include "providers/registry.h"

extern char** environ;

namespace docket::tool {
namespace {

void add_credentials_of(std::string_view text, std::vector<std::string>& credentials) {
  if (text.find("://") == std::string_view::npos) {
    return;
  }
  // User info alone is a credential unless the URL's provider prints it, as PostgreSQL
  // prints a user name (postgresql://app@db): filtering a user name such as "docket"
  // would garble every line that names the tool.
  const std::string printable = providers::Registry::builtin().printable(text);
  const auto alone = printable == core::mask_url_credentials(text, core::UserInfoAlone::kUserName)
                         ? core::UserInfoAlone::kUserName
                         : core::UserInfoAlone::kCredential;
  for (const std::string& credential : core::url_credentials(text, alone)) {
    for (std::string form : {credential, core::percent_decoded_leniently(credential)}) {
      if (form.size() >= kShortestFilteredCredential) {
        credentials.push_back(std::move(form));
      }
    }
  }
}

}  // namespace

std::vector<std::string> credentials_given(std::span<char* const> arguments) {
  std::vector<std::string> credentials;
  for (const char* argument : arguments) {
    if (argument == nullptr) {
      continue;
    }
    // "--store=URL": the URL is what follows the '='.
    std::string_view text(argument);
    if (text.starts_with('-') && text.find('=') < text.find("://")) {
      text.remove_prefix(text.find('=') + 1);
    }
    add_credentials_of(text, credentials);
  }
  for (char** variable = environ; variable != nullptr && *variable != nullptr; ++variable) {
    const std::string_view entry(*variable);
    if (const std::size_t equals = entry.find('='); equals != std::string_view::npos) {
      add_credentials_of(entry.substr(equals + 1), credentials);
    }
  }
  std::ranges::sort(credentials, [](const std::string& a, const std::string& b) {
    return a.size() != b.size() ? a.size() > b.size() : a < b;
  });
  credentials.erase(std::unique(credentials.begin(), credentials.end()), credentials.end());
  return credentials;
}

std::string without_credentials(std::string_view text, std::span<const std::string> credentials) {
  std::string out(text);
  for (const std::string& credential : credentials) {
    for (std::size_t at = out.find(credential); at != std::string::npos;
         at = out.find(credential, at + 3)) {
      out.replace(at, credential.size(), "***");
    }
  }
  return out;
}

// Holds what is written until a newline or a flush, then passes it on filtered.
class CredentialFilter::FilteringBuffer final : public std::streambuf {
 public:
  FilteringBuffer(std::ostream& stream, std::span<const std::string> credentials)
      : stream_(stream), target_(stream.rdbuf()), credentials_(credentials) {
    stream_.rdbuf(this);
  }
  ~FilteringBuffer() override {
    pass_on();
    target_->pubsync();
    stream_.rdbuf(target_);
  }
  FilteringBuffer(const FilteringBuffer&) = delete;
  FilteringBuffer& operator=(const FilteringBuffer&) = delete;

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) {
      return traits_type::not_eof(c);
    }
    held_.push_back(traits_type::to_char_type(c));
    if (held_.back() == '\n' && !pass_on()) {
      return traits_type::eof();
    }
    return c;
  }

  std::streamsize xsputn(const char* text, std::streamsize count) override {
    held_.append(text, static_cast<std::size_t>(count));
    if (held_.find('\n') != std::string::npos && !pass_on_lines()) {
      return 0;
    }
    return count;
  }

  int sync() override {
    const bool written = pass_on();
    return target_->pubsync() == 0 && written ? 0 : -1;
  }

 private:
  // False when the target took less than all of it (a closed or full output).
  bool write(std::string_view text) {
    const std::string filtered = without_credentials(text, credentials_);
    const auto size = static_cast<std::streamsize>(filtered.size());
    return target_->sputn(filtered.data(), size) == size;
  }
  // Everything held.
  bool pass_on() {
    const bool written = write(held_);
    held_.clear();
    return written;
  }
  // Every whole line held; the rest waits for its newline or a flush.
  bool pass_on_lines() {
    const std::size_t end = held_.rfind('\n') + 1;
    const bool written = write(std::string_view(held_).substr(0, end));
    held_.erase(0, end);
    return written;
  }

  std::ostream& stream_;
  std::streambuf* target_;
  std::span<const std::string> credentials_;
  std::string held_;
};

CredentialFilter::CredentialFilter(std::vector<std::string> credentials)
    : credentials_(std::move(credentials)) {
  if (!credentials_.empty()) {
    out_ = std::make_unique<FilteringBuffer>(std::cout, credentials_);
    err_ = std::make_unique<FilteringBuffer>(std::cerr, credentials_);
  }
}

CredentialFilter::~CredentialFilter() = default;

}  // namespace docket::tool
