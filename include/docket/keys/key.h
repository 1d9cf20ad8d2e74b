// A composed storage key: the exact bytes a provider stores, and the limit that
// applied to them.
//
// Thread-safety: immutable value type.
#ifndef DOCKET_KEYS_KEY_H_
#define DOCKET_KEYS_KEY_H_

#include <cstddef>
#include <string>
#include <string_view>

#include "docket/keys/provider.h"

namespace docket::keys {

struct Key {
  std::string value;        // the key, byte for byte as stored
  Provider provider;        // whose rules composed it
  std::string_view field;   // where it lives, e.g. "document id", "partition key"
  std::size_t limit_bytes;  // the provider's documented limit for that field

  std::size_t size_bytes() const noexcept { return value.size(); }
};

}  // namespace docket::keys

#endif  // DOCKET_KEYS_KEY_H_
