#include "providers/kit/recorded_ids.h"

#include <algorithm>
#include <map>

namespace docket::kit {

std::vector<bool> recorded_among(std::span<const std::string> message_ids,
                                 const RecordedReads& reads) {
  std::vector<std::string> ids;  // of each message id, in input order
  ids.reserve(message_ids.size());
  for (const std::string& message_id : message_ids) {
    ids.push_back(reads.id_of(message_id));
  }
  // The distinct ids and their answers: a batch get refuses (DynamoDB) or repeats
  // (Firestore) an id asked twice.
  std::map<std::string, bool> recorded;
  for (const std::string& id : ids) {
    recorded.emplace(id, false);
  }
  std::vector<std::string> to_read;
  for (auto& [id, answer] : recorded) {
    if (reads.known && reads.known(id)) {
      answer = true;
    } else {
      to_read.push_back(id);
    }
  }
  const std::size_t chunk = reads.chunk == 0 ? 1 : reads.chunk;
  for (std::size_t start = 0; start < to_read.size(); start += chunk) {
    const std::span<const std::string> part = std::span<const std::string>(to_read).subspan(
        start, std::min(chunk, to_read.size() - start));
    const std::vector<bool> found = reads.read(part);
    for (std::size_t i = 0; i < part.size() && i < found.size(); ++i) {
      recorded[part[i]] = found[i];
    }
  }
  std::vector<bool> result;
  result.reserve(ids.size());
  for (const std::string& id : ids) {
    result.push_back(recorded.at(id));
  }
  return result;
}

std::vector<std::string> unrecorded(std::span<const std::string> message_ids,
                                    const std::vector<bool>& recorded) {
  std::vector<std::string> result;
  for (std::size_t i = 0; i < message_ids.size(); ++i) {
    if (i >= recorded.size() || !recorded[i]) {
      result.push_back(message_ids[i]);
    }
  }
  return result;
}

}  // namespace docket::kit
