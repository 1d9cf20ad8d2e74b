// `docket bench claim`, `events` and `inbox` on a document provider's test server, the
// same cases on every such provider (DynamoDB Local, the Firestore emulator), run as a
// child process (bench_run.h): each side under a prefix of its own below the test's
// (deleted with the test's), and the report adds up (its own checks read both sides'
// tables or collections bypassing docket, the claim bench's effects among them).
//
// Each provider's test file instantiates the cases (DocumentBench, value-parameterized
// over a DocumentBenchCase) with its test-server prefix and what its requests come to:
//   INSTANTIATE_TEST_SUITE_P(DynamoDb, DocumentBench, ::testing::Values(DocumentBenchCase{
//       .make = &bench_database<test_support::DynamoDbTables>, ...}));
#ifndef DOCKET_TESTS_TOOL_DOCUMENT_BENCH_CASES_H_
#define DOCKET_TESTS_TOOL_DOCUMENT_BENCH_CASES_H_

#include <gtest/gtest.h>

#include <memory>
#include <ostream>
#include <string>

namespace docket::testing {

// A prefix of one's own on a provider's test server, deleted with it.
class BenchDatabase {
 public:
  virtual ~BenchDatabase() = default;
  // The store URL, under the prefix.
  virtual std::string url() const = 0;
  virtual std::string prefix() const = 0;
};

// A BenchDatabase over a provider's test prefix (its url() and prefix()).
template <class Prefix>
std::unique_ptr<BenchDatabase> bench_database() {
  class Database final : public BenchDatabase {
   public:
    std::string url() const override { return prefix_.url(); }
    std::string prefix() const override { return prefix_.prefix(); }

   private:
    Prefix prefix_;
  };
  return std::make_unique<Database>();
}

// One provider's case: its database, and how it counts its requests.
struct DocumentBenchCase {
  std::unique_ptr<BenchDatabase> (*make)() = nullptr;
  // The raw side's store-URL option that names its prefix: "table_prefix", "prefix".
  std::string raw_prefix_option;
  // Messages of the claim bench's runs (each once, and half of them delivered again).
  int claim_messages = 0;
  int redelivered_claim_messages = 0;
  // Requests a claim cycle: the store's own and the handler's one effect write, the
  // same on both sides.
  double claim_round_trips = 0;
  // Requests a redelivery of a processed message, which writes no effect.
  double redelivery_round_trips = 0;
};

void PrintTo(const DocumentBenchCase& bench_case, std::ostream* os);

// Every case runs on a fresh database from the parameter's factory.
class DocumentBench : public ::testing::TestWithParam<DocumentBenchCase> {
 protected:
  std::unique_ptr<BenchDatabase> database_ = GetParam().make();
};

}  // namespace docket::testing

#endif  // DOCKET_TESTS_TOOL_DOCUMENT_BENCH_CASES_H_
