// The Firestore client and its document operations against the Cloud Firestore
// emulator: values stored and read back exactly, creates and updates under
// preconditions, transactions, batch gets, queries with filters, order and cursor
// paging, limits refused before anything is sent, the errors Firestore answers, and a
// server that is not there.
#include <chrono>
#include <limits>

#include "docket/core/error.h"
#include "firestore_fixture.h"
#include "providers/firestore/firestore_limits.h"
#include "providers/firestore/firestore_value.h"
#include "support/loopback_http_server.h"

namespace docket::firestore::detail {
namespace firestore_client_test {

using nlohmann::json;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::ThrowsMessage;

Write create(const std::string& collection, const std::string& id, json fields) {
  return {.collection = collection,
          .id = id,
          .fields = std::move(fields),
          .precondition = {.exists = false}};
}

CommitResult commit_one(const Client& client, Write write) {
  return commit(client, std::span<const Write>(&write, 1), "the test's collection");
}

TEST_F(FirestoreTest, ValuesOfEveryTypeAreStoredAndReadBackExactly) {
  const std::string things = collection("things");
  std::string every_byte;
  for (int b = 0; b < 256; ++b) {
    every_byte += static_cast<char>(b);
  }
  const Timestamp when(std::chrono::microseconds(1'796'320'072'530'836));
  const json fields = {{"s", string_value("a/b:c%")},
                       {"i", integer_value(std::numeric_limits<std::int64_t>::min())},
                       {"b", bytes_value(every_byte)},
                       {"t", timestamp_value(when)},
                       {"f", boolean_value(true)},
                       {"z", null_value()},
                       {"m", map_value({{"n", integer_value(7)}})}};
  // An id with '%' escapes and ':' as the inbox writes them.
  const std::string id = "inbox:acme:m%2F1:H";
  ASSERT_TRUE(commit_one(client_, create(things, id, fields)).applied);

  const std::optional<Document> read = get_document(client_, things, id);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->id, id);
  const FieldReader reader(read->fields, "test");
  EXPECT_EQ(reader.string("s"), "a/b:c%");
  EXPECT_EQ(reader.integer("i"), std::numeric_limits<std::int64_t>::min());
  EXPECT_EQ(reader.bytes("b"), every_byte);
  EXPECT_EQ(reader.timestamp("t"), when);
  EXPECT_TRUE(reader.boolean("f"));
  EXPECT_EQ(reader.optional_integer("z"), std::nullopt);
  EXPECT_EQ(reader.map("m").integer("n"), 7);
  EXPECT_FALSE(get_document(client_, things, "absent").has_value());
}

TEST_F(FirestoreTest, ASecondCreateComesBackRefusedAndWritesNothing) {
  const std::string things = collection("things");
  ASSERT_TRUE(commit_one(client_, create(things, "d", {{"v", string_value("first")}})).applied);
  const CommitResult again = commit_one(client_, create(things, "d", {{"v", string_value("2nd")}}));
  ASSERT_FALSE(again.applied);
  EXPECT_EQ(again.refusal->code, Code::kAlreadyExists);
  EXPECT_EQ(FieldReader(get_document(client_, things, "d")->fields, "test").string("v"), "first");
}

TEST_F(FirestoreTest, AnUpdateAppliesOnlyWhileTheDocumentIsUnchangedSinceItWasRead) {
  const std::string things = collection("things");
  ASSERT_TRUE(commit_one(client_, create(things, "d", {{"v", integer_value(1)}})).applied);
  const Document read = *get_document(client_, things, "d");
  const Write update{.collection = things,
                     .id = "d",
                     .fields = json{{"v", integer_value(2)}},
                     .precondition = {.update_time = read.update_time}};
  const CommitResult first = commit_one(client_, update);
  ASSERT_TRUE(first.applied);
  ASSERT_EQ(first.update_times.size(), 1u);
  const CommitResult stale = commit_one(client_, update);
  ASSERT_FALSE(stale.applied);
  EXPECT_EQ(stale.refusal->code, Code::kFailedPrecondition);
  EXPECT_EQ(FieldReader(get_document(client_, things, "d")->fields, "test").integer("v"), 2);

  const CommitResult must_exist =
      commit_one(client_, {.collection = things, .id = "gone", .precondition = {.exists = true}});
  EXPECT_FALSE(must_exist.applied);
}

TEST_F(FirestoreTest, ATransactionCommitsItsWritesTogetherAndARollbackWritesNothing) {
  const std::string things = collection("things");
  const std::string transaction = begin_transaction(client_);
  EXPECT_FALSE(get_document(client_, things, "a", transaction).has_value());
  const std::vector<Write> writes = {create(things, "a", {{"v", integer_value(1)}}),
                                     create(things, "b", {{"v", integer_value(2)}})};
  const CommitResult result = commit(client_, writes, "things", transaction);
  ASSERT_TRUE(result.applied);
  EXPECT_EQ(result.update_times.size(), 2u);
  const std::string ids[] = {"a", "b", "c"};
  const std::vector<std::optional<Document>> found = batch_get(client_, things, ids);
  ASSERT_EQ(found.size(), 3u);
  EXPECT_TRUE(found[0].has_value());
  EXPECT_TRUE(found[1].has_value());
  EXPECT_FALSE(found[2].has_value());

  const std::string abandoned = begin_transaction(client_);
  EXPECT_TRUE(get_document(client_, things, "a", abandoned).has_value());
  rollback(client_, abandoned);
  rollback(client_, abandoned);  // already over: no throw
  EXPECT_FALSE(get_document(client_, things, "c").has_value());
}

TEST_F(FirestoreTest, ACommitWhosePreconditionFailsWritesNoneOfItsWrites) {
  const std::string things = collection("things");
  ASSERT_TRUE(commit_one(client_, create(things, "b", {{"v", integer_value(0)}})).applied);
  const std::vector<Write> writes = {create(things, "a", {{"v", integer_value(1)}}),
                                     create(things, "b", {{"v", integer_value(2)}})};
  EXPECT_FALSE(commit(client_, writes, "things").applied);
  EXPECT_FALSE(get_document(client_, things, "a").has_value());
}

TEST_F(FirestoreTest, ABatchWriteAppliesEachWriteOnItsOwnAndAnswersEach) {
  const std::string things = collection("things");
  ASSERT_TRUE(commit_one(client_, create(things, "b", {{"v", integer_value(0)}})).applied);
  const std::vector<Write> writes = {create(things, "a", {{"v", integer_value(1)}}),
                                     create(things, "b", {{"v", integer_value(2)}}),
                                     create(things, "c", {{"v", integer_value(3)}})};
  const std::vector<std::optional<std::string>> applied = write_each(client_, writes, "things");
  ASSERT_EQ(applied.size(), 3u);
  EXPECT_TRUE(applied[0].has_value());
  EXPECT_FALSE(applied[1].has_value());  // "b" exists: refused, the others still applied
  EXPECT_TRUE(applied[2].has_value());
  const std::optional<Document> a = get_document(client_, things, "a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->update_time, *applied[0]);
  EXPECT_EQ(FieldReader(get_document(client_, things, "b")->fields, "test").integer("v"), 0);
  // An update under the update time a batch write returned applies.
  const Write update{.collection = things,
                     .id = "a",
                     .fields = json{{"v", integer_value(4)}},
                     .precondition = {.update_time = *applied[0]}};
  EXPECT_TRUE(write_each(client_, std::span<const Write>(&update, 1), "things")[0].has_value());
}

TEST_F(FirestoreTest, QueriesFilterOrderAndPageWithCursors) {
  const std::string things = collection("things");
  std::vector<Write> writes;
  for (int i = 0; i < 25; ++i) {
    writes.push_back(
        create(things, "d" + std::to_string(100 + i),
               {{"n", integer_value(i % 5)}, {"kind", string_value(i % 2 ? "odd" : "even")}}));
  }
  ASSERT_TRUE(commit(client_, writes, "things").applied);

  Query evens{.collection = things,
              .where = all_of({field_filter("kind", "EQUAL", string_value("even"))}),
              .order_by = {{"n", true}}};
  std::vector<std::int64_t> seen;
  std::vector<std::string> ids;
  int pages = 0;
  query_pages(client_, evens, 4, [&](std::vector<Document>& page) {
    ++pages;
    for (const Document& document : page) {
      seen.push_back(FieldReader(document.fields, "test").integer("n"));
      ids.push_back(document.id);
    }
    return true;
  });
  EXPECT_EQ(seen.size(), 13u);
  EXPECT_EQ(pages, 4);
  EXPECT_TRUE(std::is_sorted(seen.rbegin(), seen.rend()));
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end()) << "a cursor repeated a document";

  const Query small{.collection = things,
                    .where = all_of({field_filter("n", "LESS_THAN", integer_value(2)),
                                     field_filter("kind", "EQUAL", string_value("odd"))}),
                    .limit = 100};
  EXPECT_EQ(run_query(client_, small).size(), 5u);  // i = 1, 5, 11, 15, 21
}

TEST_F(FirestoreTest, LimitsAreRefusedBeforeAnythingIsSent) {
  const std::string things = collection("things");
  EXPECT_THAT([&] { commit_one(client_, create(things, std::string(1501, 'a'), {})); },
              ThrowsMessage<InvalidInputError>(AllOf(HasSubstr(things), HasSubstr("1500"))));
  EXPECT_THAT(
      [&] {
        commit_one(client_, create(things, "big", {{"p", bytes_value(std::string(1 << 20, 'x'))}}));
      },
      ThrowsMessage<InvalidInputError>(HasSubstr("1048576")));
  std::vector<Write> many;
  for (int i = 0; i < 501; ++i) {
    many.push_back(create(things, "d" + std::to_string(i), {}));
  }
  EXPECT_THAT([&] { commit(client_, many, "things"); },
              ThrowsMessage<InvalidInputError>(HasSubstr("500 writes")));
  EXPECT_TRUE(run_query(client_, {.collection = things}).empty());
  // 1,500 bytes is Firestore's own limit, and it takes them.
  EXPECT_TRUE(commit_one(client_, create(things, std::string(1500, 'a'), {})).applied);
}

// The emulator takes at most 4 MiB a request (the service 10 MiB): a commit of five
// documents of about 1 MB each is refused at once, and nothing of it is written.
TEST_F(FirestoreTest, ACommitOverTheEmulatorsRequestLimitIsRefusedWithNothingWritten) {
  std::vector<Write> writes;
  for (int i = 0; i < 5; ++i) {
    writes.push_back({.collection = collection("big"),
                      .id = "big" + std::to_string(i),
                      .fields = json{{"v", string_value(std::string(1000000, 'x'))}}});
  }
  EXPECT_THAT([&] { commit(client_, writes, "big documents"); },
              ThrowsMessage<InvalidInputError>(HasSubstr("exceeds maximum size")));
  EXPECT_FALSE(get_document(client_, collection("big"), "big0").has_value());
}

TEST_F(FirestoreTest, ARefusedRequestIsAnErrorNamingTheMethodAndTheCollection) {
  const std::string things = collection("things");
  const Query bad{.collection = things,
                  .where = field_filter("n", "NOT_AN_OPERATOR", integer_value(1))};
  EXPECT_THAT([&] { run_query(client_, bad); },
              ThrowsMessage<InvalidInputError>(
                  AllOf(HasSubstr("Firestore runQuery on collection '" + things + "'"),
                        HasSubstr("INVALID_ARGUMENT"))));
}

TEST(FirestoreClientWithoutServer, AServerThatIsNotThereIsAnInfrastructureErrorSayingWhatToStart) {
  const int port = test_support::closed_loopback_port();
  const Client client(
      parse_store_url("firestore://127.0.0.1:" + std::to_string(port) + "?project=p"));
  EXPECT_THAT([&] { run_query(client, {.collection = "app_things"}); },
              ThrowsMessage<InfrastructureError>(
                  AllOf(HasSubstr("Firestore runQuery on collection 'app_things' at "
                                  "firestore://127.0.0.1:" +
                                  std::to_string(port)),
                        HasSubstr("could not connect"), HasSubstr("scripts/firestore-start.sh"))));
}

// Contention and throttling are repeated where nothing was applied; UNAVAILABLE only
// where the request may be applied twice.
Client client_of(const test_support::LoopbackHttpServer& server) {
  return Client(
      parse_store_url("firestore://127.0.0.1:" + std::to_string(server.port()) + "?project=p"),
      {.retry = {.max_attempts = 3,
                 .base = std::chrono::microseconds(100),
                 .cap = std::chrono::microseconds(1000)}});
}

const json kNoWrites = {{"writes", json::array()}};

TEST(FirestoreClientRetries, AbortedIsRepeatedOutsideATransactionOnly) {
  const auto server = test_support::LoopbackHttpServer::answering(
      409, R"({"error":{"code":409,"message":"contention","status":"ABORTED"}})");
  const Client client = client_of(server);
  EXPECT_THAT([&] { client.call({.method = "commit", .target = "collection 'c'"}, kNoWrites); },
              ThrowsMessage<InfrastructureError>(
                  AllOf(HasSubstr("ABORTED"), HasSubstr("3 attempts"), HasSubstr("'c'"))));
  EXPECT_EQ(server.request_count(), 3u);
  EXPECT_THROW(client.call({.method = "commit", .in_transaction = true}, kNoWrites),
               InfrastructureError);
  EXPECT_EQ(server.request_count(), 4u);
}

TEST(FirestoreClientRetries, ResourceExhaustedIsAlwaysRepeated) {
  const auto server = test_support::LoopbackHttpServer::answering(
      429, R"({"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}})");
  EXPECT_THROW(client_of(server).call({.method = "commit"}, kNoWrites), InfrastructureError);
  EXPECT_EQ(server.request_count(), 3u);
}

TEST(FirestoreClientRetries, ARequestOverTheServersSizeLimitIsNotRepeatedAndIsBadInput) {
  const auto server = test_support::LoopbackHttpServer::answering(
      429, R"({"error":{"code":429,"message":"gRPC message exceeds maximum size 4194304: )"
           R"(5000457","status":"RESOURCE_EXHAUSTED"}})");
  EXPECT_THAT([&] { client_of(server).call({.method = "commit"}, kNoWrites); },
              ThrowsMessage<InvalidInputError>(AllOf(HasSubstr("exceeds maximum size"),
                                                     HasSubstr("nothing was written"),
                                                     HasSubstr("fewer or smaller documents"))));
  EXPECT_EQ(server.request_count(), 1u);
}

TEST(FirestoreClientRetries, ARequestOverTenMebibytesIsRefusedBeforeSending) {
  test_support::LoopbackHttpServer server;
  const json request = {{"writes", json::array({{{"big", std::string(kMaxRequestBytes, 'x')}}})}};
  EXPECT_THAT([&] { client_of(server).call({.method = "commit"}, request); },
              ThrowsMessage<InvalidInputError>(
                  AllOf(HasSubstr("over Firestore's limit of 10485760 bytes on one request"),
                        HasSubstr("nothing was sent"))));
  EXPECT_EQ(server.request_count(), 0u);
}

TEST(FirestoreClientRetries, UnavailableIsRepeatedOnlyForARequestSafeToApplyTwice) {
  const auto server = test_support::LoopbackHttpServer::answering(
      503, R"({"error":{"code":503,"status":"UNAVAILABLE"}})");
  const Client client = client_of(server);
  EXPECT_THAT([&] { client.call({.method = "commit"}, kNoWrites); },
              ThrowsMessage<InfrastructureError>(HasSubstr("may or may not have been applied")));
  EXPECT_EQ(server.request_count(), 1u);
  EXPECT_THROW(client.call({.method = "runQuery", .replay = Replay::kSafe}, json::object()),
               InfrastructureError);
  EXPECT_EQ(server.request_count(), 4u);
}

TEST(FirestoreClientWithoutServer, TheCloudServiceNeedsAnAccessToken) {
  EXPECT_THAT(
      [] {
        Client(parse_store_url("firestore://googleapis?project=p"),
               {.environment = [](std::string_view) { return std::optional<std::string>(); }});
      },
      ThrowsMessage<ConfigurationError>(HasSubstr("DOCKET_FIRESTORE_ACCESS_TOKEN")));
}

// The cloud service's URL with its endpoint moved to a loopback server: what the
// client sends Google, seen on the wire (the service itself is out of the tests' reach).
TEST(FirestoreClientWithoutServer, TheAccessTokenGoesOnEveryRequestToTheCloudService) {
  test_support::LoopbackHttpServer server;
  StoreUrl url = parse_store_url("firestore://googleapis?project=p");
  ASSERT_TRUE(url.googleapis);
  url.endpoint = "http://127.0.0.1:" + std::to_string(server.port());
  int lookups = 0;
  const Client client(url, {.environment = [&](std::string_view name) {
                        ++lookups;
                        return name == kAccessTokenVariable
                                   ? std::optional<std::string>("ya29.token-of-the-test")
                                   : std::optional<std::string>();
                      }});
  client.call({.method = "commit"}, kNoWrites);
  client.call({.method = "commit"}, kNoWrites);
  const std::vector<std::string> requests = server.requests();
  ASSERT_EQ(requests.size(), 2u);
  for (const std::string& request : requests) {
    EXPECT_THAT(request, HasSubstr("POST /v1/projects/p/databases/(default)/documents:commit"));
    EXPECT_THAT(request, HasSubstr("Authorization: Bearer ya29.token-of-the-test\r\n"));
  }
  EXPECT_EQ(lookups, 1) << "the token is read once, when the client is made";

  // A server of one's own (the emulator) is sent the emulator's owner credential.
  const Client emulator = client_of(server);
  emulator.call({.method = "commit"}, kNoWrites);
  EXPECT_THAT(server.requests().back(), HasSubstr("Authorization: Bearer owner\r\n"));
}

// A batch write's write that fails for a reason not its document's (here PERMISSION_DENIED,
// code 7) is an error naming the document, saying the others may have applied.
TEST(FirestoreClientWithoutServer, ABatchWriteFailingForAnotherReasonIsAnErrorNamingTheDocument) {
  const auto server = test_support::LoopbackHttpServer::answering(
      200, R"({"writeResults":[{"updateTime":"2026-12-05T00:00:00Z"},{}],)"
           R"("status":[{},{"code":7,"message":"Missing or insufficient permissions."}]})");
  const Client client = client_of(server);
  const std::vector<Write> writes = {create("things", "a", {{"v", integer_value(1)}}),
                                     create("things", "b", {{"v", integer_value(2)}})};
  EXPECT_THAT(
      [&] { write_each(client, writes, "collection 'things'"); },
      ThrowsMessage<InfrastructureError>(AllOf(HasSubstr("document 'b'"), HasSubstr("status 7"),
                                               HasSubstr("Missing or insufficient permissions"),
                                               HasSubstr("may have been applied"))));
}

// An expired or revoked token, answered as Google documents it: a ConfigurationError that
// says which variable to refresh and how, and the request is not repeated.
TEST(FirestoreClientWithoutServer, ARefusedAccessTokenIsAConfigurationErrorSayingHowToRenewIt) {
  const auto server = test_support::LoopbackHttpServer::answering(
      401, R"({"error":{"code":401,"message":"Request had invalid authentication credentials. )"
           R"(Expected OAuth 2 access token.","status":"UNAUTHENTICATED"}})");
  StoreUrl url = parse_store_url("firestore://googleapis?project=orders-prod");
  url.endpoint = "http://127.0.0.1:" + std::to_string(server.port());
  const Client client(url, {.environment = [](std::string_view) {
                        return std::optional<std::string>("ya29.expired");
                      }});
  EXPECT_THAT([&] { client.call({.method = "commit", .target = "collection 'c'"}, kNoWrites); },
              ThrowsMessage<ConfigurationError>(
                  AllOf(HasSubstr("UNAUTHENTICATED (HTTP 401)"),
                        HasSubstr("DOCKET_FIRESTORE_ACCESS_TOKEN was refused"),
                        HasSubstr("gcloud auth print-access-token"), HasSubstr("orders-prod"))));
  EXPECT_EQ(server.request_count(), 1u);
}

}  // namespace firestore_client_test
}  // namespace docket::firestore::detail
