// Which of a batch's message ids a document provider's inbox has recorded, read in as few
// batch gets as the server allows: what the inbox store's filter_unprocessed and its unit
// of work's recorded_among (spi::InboxUnit::recorded_among, the segmented batch's pre-check)
// both are, so that DynamoDB (BatchGetItem) and Firestore (documents:batchGet) share it.
//
// Each message id is mapped once to the id its dedup record is stored under; the
// distinct ids not already known to be recorded (staged in the unit of work) are read in
// chunks of at most `chunk` ids, one read each, in id order; the answer is in input
// order, a repeated message id answered as its first.
//
// Thread-safety: pure over the functions given, called on the caller's thread.
#ifndef DOCKET_PROVIDERS_KIT_RECORDED_IDS_H_
#define DOCKET_PROVIDERS_KIT_RECORDED_IDS_H_

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace docket::kit {

struct RecordedReads {
  // The most ids one read takes (DynamoDB: 100 keys a BatchGetItem); at least 1.
  std::size_t chunk = 100;
  // The id the dedup record of `message_id` is stored under. May throw for an id the
  // store's keys refuse; nothing has been read then.
  std::function<std::string(const std::string& message_id)> id_of;
  // Whether the record under `id` is known to be recorded without a read (a unit of
  // work's staged dedup write); empty: nothing is.
  std::function<bool(const std::string& id)> known;
  // One read of `ids` (distinct, at most `chunk`): for each, in order, whether its record
  // exists.
  std::function<std::vector<bool>(std::span<const std::string> ids)> read;
};

// For each of `message_ids`, in order, whether its record is recorded.
std::vector<bool> recorded_among(std::span<const std::string> message_ids,
                                 const RecordedReads& reads);

// The message ids whose `recorded` answer (recorded_among's, same order) is false.
std::vector<std::string> unrecorded(std::span<const std::string> message_ids,
                                    const std::vector<bool>& recorded);

}  // namespace docket::kit

#endif  // DOCKET_PROVIDERS_KIT_RECORDED_IDS_H_
