// Key composition through the public API against reference_codec.h over random terms:
// every provider's inbox entry id, and the Firestore saga key and event document id
// (the saga id's own codec, the version), on terms that are valid UTF-8, invalid, empty,
// or too long for the provider. A key is the reference's bytes; a refusal names the
// first bad term in the shape's order, with the defect find_utf8_defect() describes;
// a key over the limit is refused as too long. Some terms run to kilobytes, past the
// composer's stack buffer. Each test runs once per write path the CPU has (scalar,
// SSSE3, AVX2, AVX-512), that path forced for every term.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/error.h"
#include "docket/core/utf8.h"
#include "docket/keys/inbox_key.h"
#include "docket/keys/saga_key.h"
#include "docket/keys/stream_key.h"
#include "keys/byte_codec.h"
#include "reference_codec.h"

namespace docket::keys::compose_reference_test {
namespace {

using reference::Escapes;

struct NamedTerm {
  std::string_view name;
  const std::string* value;
};

// What composing must do: the key, or the refusal it must name.
struct Expected {
  std::optional<NamedTerm> bad_term;
  bool bad_version = false;
  std::string key;
  std::size_t limit = 0;
};

Expected expect(std::string_view prefix, const std::vector<NamedTerm>& terms,
                const std::vector<Escapes>& escapes, const std::vector<std::string>& joins,
                std::size_t limit) {
  Expected expected;
  expected.key = prefix;
  expected.limit = limit;
  for (std::size_t t = 0; t < terms.size(); ++t) {
    const std::string& value = *terms[t].value;
    if (value.empty() || !reference::valid_utf8(value)) {
      expected.bad_term = terms[t];
      return expected;
    }
    expected.key += reference::encode(escapes[t], value) + joins[t];
  }
  return expected;
}

void expect_composes(const Expected& expected, const std::function<Key()>& compose) {
  try {
    const Key key = compose();
    EXPECT_FALSE(expected.bad_term) << "accepted a bad " << expected.bad_term->name;
    EXPECT_FALSE(expected.bad_version) << "accepted a negative version";
    EXPECT_LE(expected.key.size(), expected.limit) << "accepted a key over the limit";
    EXPECT_EQ(key.value, expected.key);
  } catch (const KeyTooLongError& error) {
    EXPECT_FALSE(expected.bad_term) << error.what();
    EXPECT_FALSE(expected.bad_version) << error.what();
    EXPECT_GT(expected.key.size(), expected.limit) << error.what();
    EXPECT_EQ(error.actual_bytes(), expected.key.size());
  } catch (const InvalidKeyTermError& error) {
    if (expected.bad_term) {
      const NamedTerm& bad = *expected.bad_term;
      EXPECT_EQ(error.term(), bad.name) << error.what();
      const std::string named = "the " + std::string(bad.name);
      const std::string defect =
          bad.value->empty()
              ? named + " is empty"
              : describe_utf8_defect(named, *bad.value, *find_utf8_defect(*bad.value));
      EXPECT_NE(std::string_view(error.what()).find(defect), std::string_view::npos)
          << error.what() << "\nshould say: " << defect;
    } else {
      EXPECT_TRUE(expected.bad_version) << error.what();
      EXPECT_EQ(error.term(), "version");
    }
  }
}

// Every write path this CPU runs.
std::vector<detail::WritePath> write_paths() {
  std::vector<detail::WritePath> paths;
  for (const detail::WritePath path : {detail::WritePath::kScalar, detail::WritePath::kSsse3,
                                       detail::WritePath::kAvx2, detail::WritePath::kAvx512}) {
    if (detail::write_path_available(path)) {
      paths.push_back(path);
    }
  }
  return paths;
}

const char* name_of(detail::WritePath path) {
  switch (path) {
    case detail::WritePath::kScalar:
      return "scalar loop";
    case detail::WritePath::kSsse3:
      return "SSSE3 kernel";
    case detail::WritePath::kAvx2:
      return "AVX2 kernel";
    case detail::WritePath::kAvx512:
      return "AVX-512 kernel";
  }
  return "?";
}

// Composing takes `path` while this lives, then the path it took before.
class ForcedWritePath {
 public:
  explicit ForcedWritePath(detail::WritePath path) : before_(detail::write_path()) {
    EXPECT_TRUE(detail::use_write_path(path));
    EXPECT_EQ(detail::write_path(), path);
  }
  ~ForcedWritePath() { detail::use_write_path(before_); }
  ForcedWritePath(const ForcedWritePath&) = delete;
  ForcedWritePath& operator=(const ForcedWritePath&) = delete;

 private:
  detail::WritePath before_;
};

class Terms {
 public:
  explicit Terms(std::uint64_t seed) : generate_(seed) {}

  // Mostly short; now and then kilobytes of valid text, maybe with a defect.
  std::string next() {
    if (generate_.below(25) != 0) {
      return generate_.next();
    }
    std::string text = generate_.valid(800 + generate_.below(800));
    return generate_.below(3) == 0 ? generate_.with_defect(std::move(text)) : text;
  }

  std::int64_t version() {
    return generate_.below(10) == 0 ? -static_cast<std::int64_t>(generate_.below(1000)) - 1
                                    : static_cast<std::int64_t>(generate_.below(1u << 30));
  }

 private:
  reference::TermGenerator generate_;
};

// Runs `body` once on each write path this CPU runs, forced, with terms from the run's
// seed; the trace names the path and how to replay the run.
void on_every_write_path(const std::function<void(Terms&)>& body) {
  for (const detail::WritePath path : write_paths()) {
    SCOPED_TRACE(name_of(path));
    const ForcedWritePath forced(path);
    const std::uint64_t run_seed = reference::seed();
    SCOPED_TRACE("replay with DOCKET_PROPERTY_SEED=" + std::to_string(run_seed));
    Terms terms(run_seed);
    body(terms);
  }
}

struct InboxShape {
  Provider provider;
  std::string_view prefix;
  Escapes escapes;
  std::size_t limit;
};

// docs/keys.md: "Inbox entry ids" and "Limits".
constexpr std::array<InboxShape, 6> kInboxShapes = {{
    {Provider::kFirestore, "inbox:", Escapes::kFull, 1500},
    {Provider::kElasticsearch, "", Escapes::kFull, 512},
    {Provider::kCosmosDb, "", Escapes::kCosmos, 1023},
    {Provider::kMongoDb, "", Escapes::kNarrow, 1000},
    {Provider::kRedis, "inbox:", Escapes::kNarrow, std::size_t{512} * 1024 * 1024},
    {Provider::kDynamoDb, "", Escapes::kNarrow, 2048},
}};

constexpr int kIterations = 4000;

TEST(ComposeReference, InboxEntryIdsOfEveryProvider) {
  on_every_write_path([](Terms& terms) {
    for (const InboxShape& shape : kInboxShapes) {
      SCOPED_TRACE(std::string(provider_display_name(shape.provider)));
      for (int i = 0; i < kIterations && !::testing::Test::HasFailure(); ++i) {
        const InboxEntryTerms entry{terms.next(), terms.next(), terms.next()};
        const Expected expected =
            expect(shape.prefix,
                   {{"tenant", &entry.tenant},
                    {"message id", &entry.message_id},
                    {"handler type", &entry.handler_type}},
                   {shape.escapes, shape.escapes, shape.escapes}, {":", ":", ""}, shape.limit);
        expect_composes(expected, [&] { return compose_inbox_entry_id(shape.provider, entry); });
      }
    }
  });
}

TEST(ComposeReference, FirestoreSagaKeys) {
  on_every_write_path([](Terms& terms) {
    for (int i = 0; i < kIterations && !::testing::Test::HasFailure(); ++i) {
      const SagaTerms saga{terms.next(), terms.next(), terms.next()};
      const Expected expected = expect(
          "t:",
          {{"tenant", &saga.tenant}, {"saga id", &saga.saga_id}, {"saga type", &saga.saga_type}},
          {Escapes::kFull, Escapes::kFirestoreSagaId, Escapes::kFull}, {":", "_", ""}, 1500);
      expect_composes(expected, [&] { return compose_saga_key(Provider::kFirestore, saga); });
    }
  });
}

TEST(ComposeReference, FirestoreEventDocumentIds) {
  on_every_write_path([](Terms& terms) {
    for (int i = 0; i < kIterations && !::testing::Test::HasFailure(); ++i) {
      const StreamTerms stream{terms.next(), terms.next(), terms.next()};
      const std::int64_t version = terms.version();
      Expected expected =
          expect("t:",
                 {{"tenant", &stream.tenant},
                  {"aggregate type", &stream.aggregate_type},
                  {"aggregate id", &stream.aggregate_id}},
                 {Escapes::kFull, Escapes::kFull, Escapes::kFull}, {":", ":", ":"}, 1500);
      expected.bad_version = !expected.bad_term && version < 0;
      expected.key += std::to_string(version);
      expect_composes(expected, [&] {
        return compose_event_document_id(Provider::kFirestore, stream, version);
      });
    }
  });
}

}  // namespace
}  // namespace docket::keys::compose_reference_test
