#include "providers/memory/memory_event_log.h"

#include <algorithm>
#include <utility>

namespace docket::memory::detail {

std::int64_t EventLog::version(const StreamId& stream) const {
  const auto found = streams_.find(stream);
  return found == streams_.end() ? kNoStreamVersion
                                 : static_cast<std::int64_t>(found->second.size()) - 1;
}

AppendSuccess EventLog::append(const StreamId& stream, std::vector<RecordedEvent> events) {
  auto position = static_cast<std::int64_t>(log_.size());
  for (RecordedEvent& event : events) {
    event.global_position = ++position;
  }
  AppendSuccess success = appended(events);
  // Reserve everything first: after this point nothing throws, so the append is
  // applied whole or not at all.
  std::vector<std::size_t>& indexes = streams_[stream];
  std::vector<std::size_t>& tenant_indexes = tenants_[stream.tenant()];
  log_.reserve(log_.size() + events.size());
  indexes.reserve(indexes.size() + events.size());
  tenant_indexes.reserve(tenant_indexes.size() + events.size());
  for (RecordedEvent& event : events) {
    indexes.push_back(log_.size());
    tenant_indexes.push_back(log_.size());
    log_.push_back(std::move(event));
  }
  return success;
}

std::vector<RecordedEvent> EventLog::load(const StreamId& stream, std::int64_t from_version) const {
  std::vector<RecordedEvent> events;
  const auto found = streams_.find(stream);
  if (found == streams_.end()) {
    return events;
  }
  const std::vector<std::size_t>& indexes = found->second;
  for (auto v = static_cast<std::size_t>(from_version); v < indexes.size(); ++v) {
    events.push_back(log_[indexes[v]]);
  }
  return events;
}

ReadAllPage EventLog::read_all(std::int64_t from_position, std::size_t limit,
                               const TenantId* tenant) const {
  ReadAllPage page{.events = {}, .next_position = from_position};
  // Log index of position p is p - 1; position 0 reads from the start like 1.
  const std::size_t first = from_position > 0 ? static_cast<std::size_t>(from_position - 1) : 0;
  if (tenant == nullptr) {
    for (std::size_t i = first; i < log_.size() && page.events.size() < limit; ++i) {
      page.events.push_back(log_[i]);
    }
  } else if (const auto found = tenants_.find(*tenant); found != tenants_.end()) {
    const std::vector<std::size_t>& indexes = found->second;
    for (auto it = std::lower_bound(indexes.begin(), indexes.end(), first);
         it != indexes.end() && page.events.size() < limit; ++it) {
      page.events.push_back(log_[*it]);
    }
  }
  if (!page.events.empty()) {
    page.next_position = page.events.back().global_position + 1;
  }
  return page;
}

std::int64_t EventLog::last_position(const TenantId* tenant) const {
  if (tenant == nullptr) {
    return static_cast<std::int64_t>(log_.size());  // dense: position p at index p - 1
  }
  const auto found = tenants_.find(*tenant);
  if (found == tenants_.end() || found->second.empty()) {
    return 0;
  }
  return log_[found->second.back()].global_position;
}

}  // namespace docket::memory::detail
