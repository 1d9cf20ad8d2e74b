// Pager: reads a Query or Scan page by page, following LastEvaluatedKey into the next
// request's ExclusiveStartKey until DynamoDB returns none. A page may be empty (a
// filter dropped its items, or a Limit of them were read) and still not be the last.
// Reads are repeatable: each page's request is Replay::kSafe.
//
// Thread-safety: one thread at a time; the client may be shared.
#ifndef DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_PAGER_H_
#define DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_PAGER_H_

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "providers/dynamodb/dynamodb_client.h"

namespace docket::dynamodb::detail {

class Pager {
 public:
  // `request`: the Query (or Scan) input, TableName included, no ExclusiveStartKey.
  // Throws InvalidInputError when it has no TableName or already an ExclusiveStartKey.
  static Pager query(const Client& client, nlohmann::json request);
  static Pager scan(const Client& client, nlohmann::json request);

  // Starts the read after `key` (a primary key, with the index's key attributes when
  // reading an index), as DynamoDB's ExclusiveStartKey: a page that resumes where an
  // earlier read stopped. Throws InvalidInputError once a page was read.
  Pager& start_after(nlohmann::json key);

  // The next page's Items (a JSON array), or nullopt once the last page was read.
  std::optional<nlohmann::json> next_page();

  int pages_read() const noexcept { return pages_read_; }

 private:
  Pager(const Client& client, std::string_view operation, nlohmann::json request);

  const Client* client_;
  std::string_view operation_;
  std::string table_;
  nlohmann::json request_;
  bool done_ = false;
  int pages_read_ = 0;
};

// Every item of a Query, all pages read.
nlohmann::json query_all(const Client& client, nlohmann::json request);

}  // namespace docket::dynamodb::detail

#endif  // DOCKET_PROVIDERS_DYNAMODB_DYNAMODB_PAGER_H_
