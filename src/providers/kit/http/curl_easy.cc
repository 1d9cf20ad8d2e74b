#include "providers/kit/http/curl_easy.h"

#include "docket/core/error.h"

namespace docket::kit::http {
namespace {

// curl_global_init is not thread-safe in every libcurl build: a function-local static
// runs it once, whichever thread creates the first handle. It is never cleaned up, as
// handles may live in other statics until exit.
void init_libcurl_once() {
  static const CURLcode status = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (status != CURLE_OK) {
    throw InfrastructureError(std::string("libcurl failed to initialise (curl_global_init: ") +
                              curl_easy_strerror(status) +
                              "); check the libcurl and TLS library installation");
  }
}

}  // namespace

CurlEasy::CurlEasy() {
  init_libcurl_once();
  handle_.reset(curl_easy_init());
  if (!handle_) {
    throw InfrastructureError(
        "libcurl could not create an easy handle (curl_easy_init); the "
        "process is probably out of memory");
  }
}

void CurlHeaderList::append(const std::string& line) {
  curl_slist* extended = curl_slist_append(list_.get(), line.c_str());
  if (extended == nullptr) {
    throw InfrastructureError(
        "libcurl could not add an HTTP header (curl_slist_append); the "
        "process is probably out of memory");
  }
  // curl_slist_append returns the head, which is the old head once one exists.
  (void)list_.release();
  list_.reset(extended);
}

}  // namespace docket::kit::http
