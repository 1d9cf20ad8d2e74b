#include "transports/nats/nats_connection.h"

#include <utility>

namespace docket::nats::detail {
namespace {

constexpr std::int64_t kPingIntervalMs = 5000;
constexpr int kMaxPingsOut = 3;
// Asynchronous publishes in flight at once on a connection: more than any batch.
constexpr std::int64_t kMaxPendingPublishes = 1 << 20;

// JetStream's error codes (nats-server's errors.json) that say what is missing.
constexpr jsErrCode kStreamNotFound = static_cast<jsErrCode>(10059);
constexpr jsErrCode kConsumerNotFound = static_cast<jsErrCode>(10014);

// The C client reports the server's asynchronous errors here; docket reads them from
// natsConnection_GetLastError where it needs them, so nothing is printed.
void ignore_async_error(natsConnection*, natsSubscription*, natsStatus, void*) {}

std::string advice(NatsErrorKind kind, const ServerUrl& url) {
  switch (kind) {
    case NatsErrorKind::unreachable:
      return "is the server up at " + address(url) +
             "? (scripts/nats-start.sh starts the test server)";
    case NatsErrorKind::authentication:
      return "check the user and password of the URL";
    case NatsErrorKind::access_refused:
      return "grant the user that permission, or have a user who has it do this";
    case NatsErrorKind::timeout:
      return "is JetStream enabled on the server (nats-server -js) and the server not "
             "overloaded? (the URL's timeout is " +
             std::to_string(url.timeout.count()) + " ms)";
    case NatsErrorKind::connection_lost:
      return "the connection is reopened with backoff";
    default:
      return "see the server's log";
  }
}

}  // namespace

Connection::Connection(ServerUrl url, PublishAckHandler acks) : url_(std::move(url)) {
  natsOptions* raw_options = nullptr;
  if (natsOptions_Create(&raw_options) != NATS_OK)
    fail(NatsErrorKind::protocol, "connecting", "the C client could not create its options");
  const OptionsPtr options(raw_options);
  const std::string where = address(url_);
  natsStatus status = natsOptions_SetURL(raw_options, where.c_str());
  if (status == NATS_OK && url_.user)
    status = natsOptions_SetUserInfo(raw_options, url_.user->c_str(), url_.password.c_str());
  if (status == NATS_OK)
    status = natsOptions_SetTimeout(raw_options, url_.timeout.count());
  if (status == NATS_OK)
    status = natsOptions_SetAllowReconnect(raw_options, false);
  if (status == NATS_OK)
    status = natsOptions_SetName(raw_options, "docket");
  if (status == NATS_OK)
    status = natsOptions_SetPingInterval(raw_options, kPingIntervalMs);
  if (status == NATS_OK)
    status = natsOptions_SetMaxPingsOut(raw_options, kMaxPingsOut);
  if (status == NATS_OK)
    status = natsOptions_SetErrorHandler(raw_options, &ignore_async_error, nullptr);
  if (status != NATS_OK)
    fail(NatsErrorKind::protocol, "connecting", status_text(status));
  natsConnection* raw_connection = nullptr;
  status = natsConnection_Connect(&raw_connection, raw_options);
  connection_.reset(raw_connection);
  if (status != NATS_OK) {
    NatsErrorKind kind = kind_of(status);
    const std::string text = status_text(status);
    if (text.find("uthorization") != std::string::npos ||
        text.find("uthentication") != std::string::npos)
      kind = NatsErrorKind::authentication;
    else if (kind == NatsErrorKind::connection_lost || kind == NatsErrorKind::timeout)
      kind = NatsErrorKind::unreachable;
    fail(kind, "connecting", text);
  }
  jsOptions js_options;
  jsOptions_Init(&js_options);
  js_options.Wait = url_.timeout.count();
  js_options.PublishAsync.MaxPending = kMaxPendingPublishes;
  js_options.PublishAsync.AckHandler = acks.handler;
  js_options.PublishAsync.AckHandlerClosure = acks.closure;
  jsCtx* raw_jetstream = nullptr;
  status = natsConnection_JetStream(&raw_jetstream, raw_connection, &js_options);
  jetstream_.reset(raw_jetstream);
  if (status != NATS_OK)
    fail(kind_of(status), "opening a JetStream context", status_text(status));
}

Connection::~Connection() {
  jetstream_.reset();
  if (connection_)
    natsConnection_Close(connection_.get());
}

bool Connection::closed() const noexcept {
  return natsConnection_IsClosed(connection_.get());
}

void Connection::fail(NatsErrorKind kind, std::string_view doing, std::string_view problem) const {
  throw NatsError(kind, "NATS server " + server() + ": " + std::string(doing) + " failed (" +
                            to_string(kind) + ": " + std::string(problem) + "); " +
                            advice(kind, url_));
}

void Connection::check(natsStatus status, jsErrCode error_code, std::string_view doing) const {
  if (status == NATS_OK)
    return;
  NatsErrorKind kind = kind_of(status);
  std::string problem = status_text(status);
  if (error_code == kStreamNotFound || error_code == kConsumerNotFound)
    kind = NatsErrorKind::not_found;
  if (error_code != 0)
    problem += " (JetStream error " + std::to_string(static_cast<int>(error_code)) + ")";
  if (status == NATS_TIMEOUT || status == NATS_NOT_PERMITTED) {
    const char* last = nullptr;
    if (natsConnection_GetLastError(connection_.get(), &last) == NATS_NOT_PERMITTED &&
        last != nullptr) {
      kind = NatsErrorKind::access_refused;
      problem = std::string("the server refused it: ") + last;
    }
  }
  if (closed())
    kind = NatsErrorKind::connection_lost;
  fail(kind, doing, problem);
}

}  // namespace docket::nats::detail
