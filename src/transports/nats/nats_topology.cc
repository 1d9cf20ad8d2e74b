#include "transports/nats/nats_topology.h"

#include <algorithm>
#include <vector>

namespace docket::nats::detail {
namespace {

constexpr std::int64_t kNanosPerMilli = 1'000'000;

std::string joined(const char* const* items, int count) {
  std::string out;
  for (int i = 0; i < count; ++i)
    out += (out.empty() ? "" : ", ") + std::string(items[i]);
  return out.empty() ? "(none)" : out;
}

jsOptions api_options(const Connection& connection) {
  jsOptions options;
  jsOptions_Init(&options);
  options.Wait = connection.url().timeout.count();
  return options;
}

bool missing(natsStatus status, jsErrCode code) {
  return status == NATS_NOT_FOUND || code == static_cast<jsErrCode>(10059) ||
         code == static_cast<jsErrCode>(10014);
}

void check_stream(const Connection& connection, const jsStreamInfo& info) {
  const ServerUrl& url = connection.url();
  const jsStreamConfig& config = *info.Config;
  for (const std::string& subject : url.subjects) {
    const bool taken = std::any_of(config.Subjects, config.Subjects + config.SubjectsLen,
                                   [&](const char* s) { return subject == s; });
    if (!taken) {
      connection.fail(NatsErrorKind::mismatch, "checking stream '" + url.stream + "'",
                      "the stream exists and does not take the subject '" + subject +
                          "' of the URL (it takes " + joined(config.Subjects, config.SubjectsLen) +
                          "); give the URL the stream's subjects, add the subject to the "
                          "stream, or name another stream");
    }
  }
}

// A declaration that lost a race to another client declaring the same stream or
// consumer (a relay and its consumers starting together): what it wanted exists now,
// and reading it again finds it.
bool lost_a_race(jsErrCode code) {
  return code == JSStreamNameExistErr || code == JSStreamSubjectOverlapErr ||
         code == JSConsumerNameExistErr;
}

}  // namespace

void ensure_stream(const Connection& connection, bool after_a_race) {
  const ServerUrl& url = connection.url();
  const std::string doing = "checking stream '" + url.stream + "'";
  jsOptions options = api_options(connection);
  jsErrCode code = static_cast<jsErrCode>(0);
  jsStreamInfo* raw = nullptr;
  natsStatus status =
      js_GetStreamInfo(&raw, connection.jetstream(), url.stream.c_str(), &options, &code);
  StreamInfoPtr info(raw);
  if (status == NATS_OK) {
    check_stream(connection, *info);
    return;
  }
  if (!missing(status, code))
    connection.check(status, code, doing);
  if (url.subjects.empty()) {
    connection.fail(NatsErrorKind::not_found, doing,
                    "the stream does not exist, and the URL gives no subjects to declare it "
                    "with; add ?subject=<subjects> (e.g. orders.>) or create the stream");
  }
  std::vector<const char*> subjects;
  for (const std::string& subject : url.subjects)
    subjects.push_back(subject.c_str());
  jsStreamConfig config;
  jsStreamConfig_Init(&config);
  config.Name = url.stream.c_str();
  config.Subjects = subjects.data();
  config.SubjectsLen = static_cast<int>(subjects.size());
  config.Retention = js_LimitsPolicy;
  config.Storage = js_FileStorage;
  config.Discard = js_DiscardOld;
  config.Duplicates = url.duplicate_window.count() * kNanosPerMilli;
  if (url.max_msg_size)
    config.MaxMsgSize = *url.max_msg_size;
  if (url.max_age)
    config.MaxAge = url.max_age->count() * kNanosPerMilli;
  code = static_cast<jsErrCode>(0);
  raw = nullptr;
  status = js_AddStream(&raw, connection.jetstream(), &config, &options, &code);
  info.reset(raw);
  if (status != NATS_OK && !after_a_race && lost_a_race(code)) {
    ensure_stream(connection, /*after_a_race=*/true);
    return;
  }
  if (status != NATS_OK) {
    try {
      connection.check(status, code, "declaring stream '" + url.stream + "'");
    } catch (const NatsError& error) {
      if (error.kind() != NatsErrorKind::access_refused)
        throw;
      connection.fail(NatsErrorKind::access_refused, "declaring stream '" + url.stream + "'",
                      "the stream does not exist and user '" + url.user.value_or("(anonymous)") +
                          "' may not create it (" + error.what() +
                          "); create it as a user who may, or grant this user the permission "
                          "to publish to $JS.API.STREAM.CREATE." +
                          url.stream);
    }
  }
}

void ensure_consumer(const Connection& connection, const ConsumerSpec& spec, bool after_a_race) {
  const ServerUrl& url = connection.url();
  jsOptions options = api_options(connection);
  jsErrCode code = static_cast<jsErrCode>(0);
  jsConsumerInfo* raw = nullptr;
  natsStatus status = js_GetConsumerInfo(&raw, connection.jetstream(), url.stream.c_str(),
                                         spec.name.c_str(), &options, &code);
  ConsumerInfoPtr info(raw);
  const std::string what = "consumer '" + spec.name + "' of stream '" + url.stream + "'";
  if (status == NATS_OK) {
    const char* filter = info->Config->FilterSubject;
    if (filter == nullptr || spec.filter_subject != filter) {
      connection.fail(NatsErrorKind::mismatch, "checking " + what,
                      "it exists and filters '" + std::string(filter ? filter : "") +
                          "', not the destination '" + spec.filter_subject +
                          "'; delete it or use another consumer group");
    }
    return;
  }
  if (!missing(status, code))
    connection.check(status, code, "checking " + what);
  jsConsumerConfig config;
  jsConsumerConfig_Init(&config);
  config.Durable = spec.name.c_str();
  config.FilterSubject = spec.filter_subject.c_str();
  config.AckPolicy = js_AckExplicit;
  config.DeliverPolicy = js_DeliverAll;
  config.AckWait = url.ack_wait.count() * kNanosPerMilli;
  config.MaxDeliver = url.max_deliver.value_or(-1);
  config.MaxAckPending = url.max_ack_pending;
  code = static_cast<jsErrCode>(0);
  raw = nullptr;
  status =
      js_AddConsumer(&raw, connection.jetstream(), url.stream.c_str(), &config, &options, &code);
  info.reset(raw);
  if (status != NATS_OK && !after_a_race && lost_a_race(code)) {
    ensure_consumer(connection, spec, /*after_a_race=*/true);
    return;
  }
  if (status != NATS_OK) {
    try {
      connection.check(status, code, "declaring " + what);
    } catch (const NatsError& error) {
      if (error.kind() != NatsErrorKind::access_refused)
        throw;
      connection.fail(NatsErrorKind::access_refused, "declaring " + what,
                      "the consumer does not exist and user '" + url.user.value_or("(anonymous)") +
                          "' may not create it (" + error.what() +
                          "); create it as a user who may (a durable pull consumer with "
                          "explicit acknowledgement filtering '" +
                          spec.filter_subject + "'), or grant this user the permission");
    }
  }
}

void delete_consumer(const Connection& connection, std::string_view name) {
  jsOptions options = api_options(connection);
  jsErrCode code = static_cast<jsErrCode>(0);
  const std::string consumer(name);
  const natsStatus status = js_DeleteConsumer(
      connection.jetstream(), connection.url().stream.c_str(), consumer.c_str(), &options, &code);
  if (status != NATS_OK && !missing(status, code))
    connection.check(status, code, "deleting consumer '" + consumer + "'");
}

void delete_stream(const Connection& connection) {
  jsOptions options = api_options(connection);
  jsErrCode code = static_cast<jsErrCode>(0);
  const natsStatus status =
      js_DeleteStream(connection.jetstream(), connection.url().stream.c_str(), &options, &code);
  if (status != NATS_OK && !missing(status, code))
    connection.check(status, code, "deleting stream '" + connection.url().stream + "'");
}

std::uint64_t consumer_backlog(const Connection& connection, std::string_view name) {
  jsOptions options = api_options(connection);
  jsErrCode code = static_cast<jsErrCode>(0);
  jsConsumerInfo* raw = nullptr;
  const std::string consumer(name);
  const natsStatus status =
      js_GetConsumerInfo(&raw, connection.jetstream(), connection.url().stream.c_str(),
                         consumer.c_str(), &options, &code);
  const ConsumerInfoPtr info(raw);
  connection.check(status, code, "reading consumer '" + consumer + "'");
  return info->NumPending + static_cast<std::uint64_t>(info->NumAckPending);
}

}  // namespace docket::nats::detail
