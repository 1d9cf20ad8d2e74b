// Fuzz target for src/keys. The first input byte is a delimiter; the rest is split on
// it into terms (so any byte, NUL included, can appear in a term). For every provider
// and every key kind the terms are composed; a composed key must parse back to its
// terms. Independently, the input is parsed as a key of every kind and provider, and
// whatever parses must re-compose to the input byte for byte. Any violation aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/keys/inbox_key.h"
#include "docket/keys/legacy.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"
#include "docket/keys/term_codec.h"

namespace {

using namespace docket::keys;

[[noreturn]] void fail(const char* what, std::string_view key) {
  std::fprintf(stderr, "keys fuzz: %s (key of %zu bytes)\n", what, key.size());
  std::abort();
}

void require(bool condition, const char* what, std::string_view key) {
  if (!condition) {
    fail(what, key);
  }
}

std::string term(const std::vector<std::string>& terms, std::size_t index) {
  return index < terms.size() ? terms[index] : std::string("x");
}

// Composition either refuses with a docket error or round-trips.
template <typename Compose, typename Check>
void compose_and_check(Compose compose, Check check) {
  try {
    const Key key = compose();
    require(key.size_bytes() <= key.limit_bytes, "key over its limit", key.value);
    check(key.value);
  } catch (const docket::InvalidInputError&) {
    // Refused: an empty or malformed term, a key over the limit, or no such shape.
  }
}

void fuzz_composition(const std::vector<std::string>& terms, std::int64_t version) {
  const InboxEntryTerms inbox{term(terms, 0), term(terms, 1), term(terms, 2)};
  const StreamTerms stream{term(terms, 0), term(terms, 1), term(terms, 2)};
  const SagaTerms saga{term(terms, 0), term(terms, 1), term(terms, 2)};
  for (Provider provider : kAllProviders) {
    compose_and_check([&] { return compose_inbox_entry_id(provider, inbox); },
                      [&](const std::string& key) {
                        require(parse_inbox_entry_id(provider, key) == inbox, "inbox round trip",
                                key);
                      });
    compose_and_check([&] { return compose_stream_key(provider, stream); },
                      [&](const std::string& key) {
                        StreamTerms expected = stream;
                        if (provider == Provider::kMongoDb) {
                          expected.aggregate_type.clear();
                        }
                        require(parse_stream_key(provider, key) == expected, "stream round trip",
                                key);
                        require(!is_legacy_untenanted_stream_key(provider, key),
                                "current stream key reads as legacy", key);
                      });
    compose_and_check([&] { return compose_event_document_id(provider, stream, version); },
                      [&](const std::string& key) {
                        const EventDocumentTerms expected{stream, version};
                        require(parse_event_document_id(provider, key) == expected,
                                "event document round trip", key);
                      });
    compose_and_check([&] { return compose_snapshot_key(provider, stream); },
                      [&](const std::string& key) {
                        require(parse_snapshot_key(provider, key) == stream, "snapshot round trip",
                                key);
                      });
    compose_and_check([&] { return compose_saga_key(provider, saga); },
                      [&](const std::string& key) {
                        SagaTerms expected = saga;
                        if (provider != Provider::kFirestore) {
                          expected.saga_type.clear();
                        }
                        require(parse_saga_key(provider, key) == expected, "saga round trip", key);
                        require(!is_legacy_untenanted_saga_key(provider, key),
                                "current saga key reads as legacy", key);
                      });
  }
}

// Whatever parses is canonical: composing its terms gives the input back exactly.
void fuzz_parsing(std::string_view key) {
  for (Provider provider : kAllProviders) {
    if (const auto terms = parse_inbox_entry_id(provider, key)) {
      require(compose_inbox_entry_id(provider, *terms).value == key, "inbox re-compose", key);
    }
    if (const auto terms = parse_stream_key(provider, key)) {
      require(compose_stream_key(provider, *terms).value == key, "stream re-compose", key);
    }
    if (const auto terms = parse_event_document_id(provider, key)) {
      require(compose_event_document_id(provider, terms->stream, terms->version).value == key,
              "event document re-compose", key);
    }
    if (const auto terms = parse_snapshot_key(provider, key)) {
      require(compose_snapshot_key(provider, *terms).value == key, "snapshot re-compose", key);
    }
    if (const auto terms = parse_saga_key(provider, key)) {
      require(compose_saga_key(provider, *terms).value == key, "saga re-compose", key);
    }
  }
  if (const auto decoded = percent_decode(key)) {
    require(percent_decode(percent_encode(*decoded)) == *decoded, "percent codec", key);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  fuzz_parsing(input);
  if (input.empty()) {
    return 0;
  }
  const char delimiter = input.front();
  std::vector<std::string> terms;
  std::string_view rest = input.substr(1);
  while (terms.size() < 4) {
    const std::size_t at = rest.find(delimiter);
    terms.emplace_back(rest.substr(0, at));
    if (at == std::string_view::npos) {
      break;
    }
    rest.remove_prefix(at + 1);
  }
  // A fourth term, when present, sets the event version (any int64, negative ones too).
  std::int64_t version = 0;
  for (char c : term(terms, 3)) {
    version = static_cast<std::int64_t>(static_cast<std::uint64_t>(version) * 131u +
                                        static_cast<unsigned char>(c));
  }
  fuzz_composition(terms, version);
  return 0;
}
