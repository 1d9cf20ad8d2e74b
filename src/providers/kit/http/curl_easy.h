// RAII over libcurl's handles: an easy handle (one transfer at a time, and the
// connections it keeps alive between transfers) and a header list. Creating the
// first handle initialises libcurl once for the process.
//
// Thread-safety: a handle belongs to one thread at a time (libcurl's rule); different
// handles may be used on different threads at once.
#ifndef DOCKET_PROVIDERS_KIT_HTTP_CURL_EASY_H_
#define DOCKET_PROVIDERS_KIT_HTTP_CURL_EASY_H_

#include <curl/curl.h>

#include <memory>
#include <string>

namespace docket::kit::http {

class CurlEasy {
 public:
  // Throws InfrastructureError when libcurl cannot initialise or allocate a handle.
  CurlEasy();

  CURL* native() const noexcept { return handle_.get(); }

  // Back to the state of a new handle, keeping its live connections, DNS and TLS
  // session caches (curl_easy_reset): the next transfer sets every option it needs.
  void reset() noexcept { curl_easy_reset(handle_.get()); }

 private:
  struct Cleanup {
    void operator()(CURL* handle) const noexcept { curl_easy_cleanup(handle); }
  };
  std::unique_ptr<CURL, Cleanup> handle_;
};

// A curl_slist of "Name: value" lines, freed with the object.
class CurlHeaderList {
 public:
  // Throws InfrastructureError when libcurl cannot allocate the entry.
  void append(const std::string& line);
  curl_slist* native() const noexcept { return list_.get(); }

 private:
  struct Free {
    void operator()(curl_slist* list) const noexcept { curl_slist_free_all(list); }
  };
  std::unique_ptr<curl_slist, Free> list_;
};

}  // namespace docket::kit::http

#endif  // DOCKET_PROVIDERS_KIT_HTTP_CURL_EASY_H_
