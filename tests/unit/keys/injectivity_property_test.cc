// Randomized property test of every key shape: for every provider and every kind,
// over an adversarial alphabet,
//   - composition either succeeds or refuses consistently (an empty term is refused
//     with InvalidKeyTermError, an oversized key with KeyTooLongError);
//   - parse(compose(t)) == t;
//   - no two distinct tuples compose one key;
//   - Cosmos DB ids never hold / \ ? #, Firestore ids never hold '/', are never "." or
//     "..", and never match __.*__;
//   - terms of unreserved characters only give the documented shape byte for byte.
// The seed comes from DOCKET_PROPERTY_SEED when set, else from std::random_device, and
// is printed with every failure so that a failing run can be replayed.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "docket/core/error.h"
#include "docket/keys/inbox_key.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"

#ifndef DOCKET_PROPERTY_ITERATIONS
#define DOCKET_PROPERTY_ITERATIONS 200000
#endif

namespace docket::keys {
namespace {

constexpr int kIterations = DOCKET_PROPERTY_ITERATIONS;

enum class Kind { kInbox, kStream, kEventDocument, kSnapshot, kSaga };

const char* kind_name(Kind kind) {
  switch (kind) {
    case Kind::kInbox:
      return "inbox entry id";
    case Kind::kStream:
      return "stream key";
    case Kind::kEventDocument:
      return "event document id";
    case Kind::kSnapshot:
      return "snapshot key";
    case Kind::kSaga:
      return "saga key";
  }
  return "?";
}

// Three string terms (in the order of each kind's struct) and a version.
struct Tuple {
  std::array<std::string, 3> terms;
  std::int64_t version = 0;
  friend bool operator==(const Tuple&, const Tuple&) = default;
};

std::string show(const Tuple& tuple) {
  std::string text = "(";
  for (const std::string& term : tuple.terms) {
    text += "\"" + term + "\" ";
  }
  return text + std::to_string(tuple.version) + ")";
}

struct Case {
  Kind kind;
  Provider provider;
};

std::vector<Case> all_cases() {
  std::vector<Case> cases;
  for (Provider provider : kAllProviders) {
    cases.push_back({Kind::kInbox, provider});
  }
  for (Provider provider : {Provider::kCosmosDb, Provider::kDynamoDb, Provider::kMongoDb}) {
    cases.push_back({Kind::kStream, provider});
  }
  cases.push_back({Kind::kEventDocument, Provider::kFirestore});
  for (Provider provider :
       {Provider::kCosmosDb, Provider::kDynamoDb, Provider::kMongoDb, Provider::kFirestore}) {
    cases.push_back({Kind::kSnapshot, provider});
    cases.push_back({Kind::kSaga, provider});
  }
  return cases;
}

// Clears the terms a shape does not hold (MongoDB stream ids omit the aggregate type;
// only Firestore saga ids hold the saga type), so tuples compare as the key sees them.
Tuple normalized(const Case& c, Tuple tuple) {
  if (c.kind == Kind::kStream && c.provider == Provider::kMongoDb) {
    tuple.terms[1].clear();
  }
  if (c.kind == Kind::kSaga && c.provider != Provider::kFirestore) {
    tuple.terms[1].clear();
  }
  if (c.kind != Kind::kEventDocument) {
    tuple.version = 0;
  }
  return tuple;
}

bool holds_term(const Case& c, std::size_t index) {
  if (index != 1) {
    return true;
  }
  if (c.kind == Kind::kStream && c.provider == Provider::kMongoDb) {
    return false;
  }
  return !(c.kind == Kind::kSaga && c.provider != Provider::kFirestore);
}

Key compose(const Case& c, const Tuple& t) {
  switch (c.kind) {
    case Kind::kInbox:
      return compose_inbox_entry_id(c.provider, {t.terms[0], t.terms[1], t.terms[2]});
    case Kind::kStream:
      return compose_stream_key(c.provider, {t.terms[0], t.terms[1], t.terms[2]});
    case Kind::kEventDocument:
      return compose_event_document_id(c.provider, {t.terms[0], t.terms[1], t.terms[2]}, t.version);
    case Kind::kSnapshot:
      return compose_snapshot_key(c.provider, {t.terms[0], t.terms[1], t.terms[2]});
    case Kind::kSaga:
      return compose_saga_key(c.provider, {t.terms[0], t.terms[1], t.terms[2]});
  }
  throw std::logic_error("unknown kind");
}

std::optional<Tuple> parse(const Case& c, std::string_view key) {
  switch (c.kind) {
    case Kind::kInbox:
      if (auto t = parse_inbox_entry_id(c.provider, key)) {
        return Tuple{{t->tenant, t->message_id, t->handler_type}, 0};
      }
      return std::nullopt;
    case Kind::kStream:
      if (auto t = parse_stream_key(c.provider, key)) {
        return Tuple{{t->tenant, t->aggregate_type, t->aggregate_id}, 0};
      }
      return std::nullopt;
    case Kind::kEventDocument:
      if (auto t = parse_event_document_id(c.provider, key)) {
        return Tuple{{t->stream.tenant, t->stream.aggregate_type, t->stream.aggregate_id},
                     t->version};
      }
      return std::nullopt;
    case Kind::kSnapshot:
      if (auto t = parse_snapshot_key(c.provider, key)) {
        return Tuple{{t->tenant, t->aggregate_type, t->aggregate_id}, 0};
      }
      return std::nullopt;
    case Kind::kSaga:
      if (auto t = parse_saga_key(c.provider, key)) {
        return Tuple{{t->tenant, t->saga_type, t->saga_id}, 0};
      }
      return std::nullopt;
  }
  return std::nullopt;
}

// The documented shape, built from the raw terms, for terms of unreserved characters.
std::string documented_shape(const Case& c, const Tuple& t) {
  const std::string& a = t.terms[0];
  const std::string& b = t.terms[1];
  const std::string& d = t.terms[2];
  switch (c.kind) {
    case Kind::kInbox: {
      const bool prefixed = c.provider == Provider::kFirestore || c.provider == Provider::kRedis;
      return (prefixed ? "inbox:" : "") + a + ":" + b + ":" + d;
    }
    case Kind::kStream:
      return c.provider == Provider::kMongoDb ? "t:" + a + ":" + d : "t:" + a + ":" + b + ":" + d;
    case Kind::kEventDocument:
      return "t:" + a + ":" + b + ":" + d + ":" + std::to_string(t.version);
    case Kind::kSnapshot:
      return (c.provider == Provider::kDynamoDb ? "SNAPSHOT#t:" : "t:") + a + ":" + b + ":" + d;
    case Kind::kSaga:
      switch (c.provider) {
        case Provider::kDynamoDb:
          return "SAGA#t:" + a + ":" + d;
        case Provider::kFirestore:
          return "t:" + a + ":" + d + "_" + b;
        default:
          return "t:" + a + ":" + d;
      }
  }
  return {};
}

std::uint64_t seed() {
  if (const char* text = std::getenv("DOCKET_PROPERTY_SEED")) {
    return std::strtoull(text, nullptr, 10);
  }
  std::random_device device;
  return (std::uint64_t{device()} << 32) | device();
}

// Atoms chosen to collide: separators and escape characters of every codec, the
// constant prefixes, reserved Firestore forms, multi-byte UTF-8 and escape look-alikes.
constexpr std::string_view kAtoms[] = {
    ":",
    "_",
    "%",
    "/",
    "#",
    "?",
    "\\",
    ".",
    "~",
    " ",
    "a",
    "Z",
    "0",
    "9",
    "-",
    "__",
    "..",
    "inbox",
    "t",
    "SAGA#",
    "SNAPSHOT#",
    "t:",
    "inbox:",
    "%3A",
    "%25",
    "%5F",
    "\xC3\xA9",
    "\xE4\xB8\xAD",
    "\xF0\x9F\x98\x80",
    "\t",
    std::string_view("\0", 1),
    "\x7F",
    "_t",
};

class Generator {
 public:
  explicit Generator(std::uint64_t seed) : random_(seed) {}

  std::string term() {
    const int roll = pick(100);
    if (roll < 6) {
      return {};  // empty terms must be refused
    }
    // Rarely, a long term, so that limits are crossed on every provider.
    const int atoms = roll < 7 ? 150 + pick(250) : pick(4) + 1;
    std::string text;
    for (int i = 0; i < atoms; ++i) {
      text += kAtoms[static_cast<std::size_t>(pick(std::size(kAtoms)))];
    }
    return text;
  }

  std::string unreserved_term(bool allow_underscore) {
    static constexpr std::string_view kUnreserved =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    std::string text;
    const int length = pick(8) + 1;
    while (static_cast<int>(text.size()) < length) {
      const char c = kUnreserved[static_cast<std::size_t>(pick(kUnreserved.size()))];
      if (c != '_' || allow_underscore) {
        text += c;
      }
    }
    return text;
  }

  std::int64_t version() {
    const int roll = pick(4);
    if (roll == 0) {
      return pick(10);
    }
    if (roll == 1) {
      return INT64_MAX - pick(3);
    }
    return static_cast<std::int64_t>(random_() >> 1);
  }

  int pick(std::size_t bound) {
    return static_cast<int>(std::uniform_int_distribution<std::size_t>(0, bound - 1)(random_));
  }

 private:
  std::mt19937_64 random_;
};

void check_provider_restrictions(const Case& c, const std::string& key) {
  if (c.provider == Provider::kCosmosDb) {
    EXPECT_EQ(key.find_first_of("/\\?#"), std::string::npos) << key;
  }
  if (c.provider == Provider::kFirestore) {
    EXPECT_EQ(key.find('/'), std::string::npos) << key;
    EXPECT_NE(key, ".");
    EXPECT_NE(key, "..");
    EXPECT_FALSE(key.size() >= 4 && key.starts_with("__") && key.ends_with("__")) << key;
  }
}

TEST(KeyProperty, ComposeIsInjectiveAndParseIsItsInverse) {
  const std::uint64_t run_seed = seed();
  SCOPED_TRACE("replay with DOCKET_PROPERTY_SEED=" + std::to_string(run_seed));
  Generator generate(run_seed);

  for (const Case& c : all_cases()) {
    SCOPED_TRACE(std::string(kind_name(c.kind)) + " on " +
                 std::string(provider_display_name(c.provider)));
    std::unordered_map<std::string, Tuple> seen;
    seen.reserve(static_cast<std::size_t>(kIterations));
    int composed = 0;
    int failures = 0;
    for (int i = 0; i < kIterations && failures < 5; ++i) {
      Tuple tuple;
      for (std::string& term : tuple.terms) {
        term = generate.term();
      }
      tuple.version = generate.version();
      tuple = normalized(c, std::move(tuple));
      bool has_empty = false;
      for (std::size_t t = 0; t < 3; ++t) {
        has_empty = has_empty || (holds_term(c, t) && tuple.terms[t].empty());
      }

      std::optional<Key> key;
      try {
        key = compose(c, tuple);
      } catch (const InvalidKeyTermError& error) {
        if (!has_empty) {
          ADD_FAILURE() << "refused " << show(tuple) << ": " << error.what();
          ++failures;
        }
        continue;
      } catch (const KeyTooLongError& error) {
        if (has_empty || error.actual_bytes() <= error.limit_bytes()) {
          ADD_FAILURE() << "wrongly too long " << show(tuple) << ": " << error.what();
          ++failures;
        }
        continue;
      }
      if (has_empty) {
        ADD_FAILURE() << "accepted an empty term " << show(tuple) << " as " << key->value;
        ++failures;
        continue;
      }
      ++composed;
      EXPECT_LE(key->size_bytes(), key->limit_bytes);
      check_provider_restrictions(c, key->value);

      const std::optional<Tuple> parsed = parse(c, key->value);
      if (parsed != tuple) {
        ADD_FAILURE() << "parse(compose" << show(tuple)
                      << ") = " << (parsed ? show(*parsed) : "nullopt") << " for key "
                      << key->value;
        ++failures;
      }
      const auto [at, inserted] = seen.try_emplace(key->value, tuple);
      if (!inserted && at->second != tuple) {
        ADD_FAILURE() << "two tuples compose one key " << key->value << ": " << show(at->second)
                      << " and " << show(tuple);
        ++failures;
      }
    }
    // The alphabet is small, so many tuples repeat; most must still be distinct keys.
    EXPECT_GT(composed, kIterations / 2);
    EXPECT_GT(seen.size(), static_cast<std::size_t>(kIterations / 4));
  }
}

TEST(KeyProperty, UnreservedTermsGiveTheDocumentedShape) {
  const std::uint64_t run_seed = seed();
  SCOPED_TRACE("replay with DOCKET_PROPERTY_SEED=" + std::to_string(run_seed));
  Generator generate(run_seed);
  for (const Case& c : all_cases()) {
    SCOPED_TRACE(std::string(kind_name(c.kind)) + " on " +
                 std::string(provider_display_name(c.provider)));
    for (int i = 0; i < kIterations / 20; ++i) {
      Tuple tuple;
      tuple.terms[0] = generate.unreserved_term(true);
      tuple.terms[1] = generate.unreserved_term(true);
      // The Firestore saga shape joins id and type with '_', so its ids escape '_'.
      const bool firestore_saga = c.kind == Kind::kSaga && c.provider == Provider::kFirestore;
      tuple.terms[2] = generate.unreserved_term(!firestore_saga);
      tuple.version = generate.version();
      const std::string key = compose(c, tuple).value;
      ASSERT_EQ(key, documented_shape(c, tuple)) << show(tuple);
    }
  }
}

}  // namespace
}  // namespace docket::keys
