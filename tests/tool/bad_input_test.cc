// The catalogue of bad input, for every command of the tool: wrong types, negative and
// huge numbers, empty strings, invalid UTF-8, unknown providers, unreachable and
// malformed URLs. Each case must end within seconds, with "docket: " and a message
// naming the option or the problem on stderr, nothing on stdout, the exit status the
// rule gives (docs/reliability.md, "Exit status"), and no credential of any URL given:
//   2  usage error: the command line is wrong (an unknown option or a missing one,
//      text that is no value of the option's kind, a number or duration outside its
//      option's range, options that contradict);
//   1  refused: a well-formed command line naming what docket refuses (a term its key
//      rules refuse, a store or transport URL it cannot use, a server not there).
// The benchmarks' own range checks (bench/option_checks.h) keep the rule too: a value
// out of range is a usage error, while the store or broker a benchmark cannot use is
// refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "tool_runner.h"

namespace docket::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int kUsage = 2;
constexpr int kRefused = 1;
// A case's limit: any refusal takes well under it.
constexpr std::chrono::seconds kCaseLimit{20};
constexpr char kSecret[] = "Catalogue-Secret-7f3e";

struct BadInput {
  std::vector<std::string> args;
  int exit_code;
  std::vector<std::string> mentions;  // stderr names at least one of these
};

// A store that would be written if a refusal came too late: never created, since
// every case is refused first.
const std::string kStore = "sqlite:///nonexistent-docket-dir/catalogue.db";

// Bad store URLs, each with what its refusal names.
struct BadUrl {
  std::string url;
  std::vector<std::string> mentions;
};
const std::vector<BadUrl>& bad_store_urls() {
  static const std::vector<BadUrl> urls = {
      {"", {"URL", "empty"}},
      {"nosuch://u:" + std::string(kSecret) + "@127.0.0.1/x", {"nosuch"}},
      {"postgresql://u:" + std::string(kSecret) + "@127.0.0.1:notaport/db", {"notaport"}},
      {"postgresql://u:" + std::string(kSecret) + "@127.0.0.1:1/db", {"127.0.0.1"}},
      {"dynamodb://127.0.0.1:1", {"region"}},
      {"dynamodb://127.0.0.1:1?region=us-east-1&aws_secret_access_key=" + std::string(kSecret),
       {"aws_secret_access_key"}},
      {"dynamodb://127.0.0.1:1?region=us-east-1", {"127.0.0.1"}},
      {"firestore://" + std::string(kSecret) + "@127.0.0.1:1?project=p", {"user info"}},
      {"firestore://127.0.0.1:1?project=p", {"127.0.0.1"}},
      {"firestore://127.0.0.1:1?project=\xff", {"project"}},
  };
  return urls;
}

// Every command that takes --store, with the rest of a valid command line.
const std::vector<std::vector<std::string>>& store_commands() {
  static const std::vector<std::vector<std::string>> commands = {
    {"inbox", "stats"},
    {"inbox", "failed"},
    {"inbox", "cleanup", "--older-than", "1d", "--all-tenants", "--dry-run"},
    {"inbox", "retry", "--all", "--dry-run"},
    {"migrate", "inbox-ids", "--dry-run"},
    {"migrate", "tenant-rekey", "--tenant", "acme", "--dry-run"},
    {"events", "show", "--tenant", "acme", "--aggregate-type", "order", "--aggregate-id", "o"},
    {"sagas", "show", "--tenant", "acme", "--saga-type", "checkout", "--saga-id", "o"},
    {"sagas", "list", "--status", "active", "--older-than", "1h"},
    {"projections", "status"},
    {"projections", "reset", "--consumer", "projector", "--to", "0", "--dry-run"},
    {"projections", "rebuild", "--consumer", "projector", "--dry-run"},
    {"demo", "--orders", "5"},
    {"chaos", "--kills", "1"},
    {"soak", "--duration", "2s", "--sample-every", "1s"},
#if DOCKET_TOOL_HAS_BENCH
    {"bench", "inbox", "--messages", "10"},
    {"bench", "claim", "--messages", "10"},
    {"bench", "events", "--appends", "10"},
    {"bench", "outbox", "--messages", "10"},
#endif
    {"outbox", "list", "--status", "parked"},
    {"outbox", "replay", "--all", "--dry-run"},
    {"outbox", "skip", "--id", "0190f3a4-0000-7000-8000-000000000000", "--dry-run"},
  };
  return commands;
}

std::vector<std::string> plus(std::vector<std::string> args, const std::vector<std::string>& more) {
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

// Options of each command given what is no value of their kind, out of range, empty or
// not UTF-8.
std::vector<BadInput> option_cases() {
  const std::vector<std::string> stream = {"--tenant", "acme",           "--aggregate-type",
                                           "order",    "--aggregate-id", "o"};
  const std::vector<std::string> events = plus({"events", "show", "--store", kStore}, {});
  const std::vector<std::string> keys_inbox = {"keys",         "inbox", "--provider", "dynamodb",
                                               "--message-id", "m-1",   "--handler",  "H"};
  std::vector<BadInput> cases = {
    // demo
    {{"demo", "--orders", "ten"}, kUsage, {"--orders"}},
    {{"demo", "--orders", "-5"}, kUsage, {"--orders"}},
    {{"demo", "--orders", "0"}, kUsage, {"--orders"}},
    {{"demo", "--orders", "99999999999999999999"}, kUsage, {"--orders"}},
    {{"demo", "--orders", "18446744073709551615"}, kUsage, {"--orders"}},
    {{"demo", "--seed", "-1"}, kUsage, {"--seed"}},
    {{"demo", "--faults", "extreme"}, kUsage, {"--faults"}},
    {{"demo", "--faults", ""}, kUsage, {"--faults"}},
    {{"demo", "--store", kStore, "--dir", "/tmp"}, kUsage, {"--dir", "--store"}},
    {{"demo", "--transport", ""}, kRefused, {"transport URL"}},
    {{"demo", "--transport", "nosuch://u:" + std::string(kSecret) + "@h"}, kRefused, {"nosuch"}},
    {{"demo", "--transport", "amqp://u:" + std::string(kSecret) + "@127.0.0.1:1/v?exchange=x"},
     kRefused,
     {"127.0.0.1"}},
    {{"demo", "--transport", "amqp://u:p@127.0.0.1:1/v?exchange=x&heartbeat=-1"},
     kRefused,
     {"heartbeat"}},
    // chaos
    {{"chaos", "--store", kStore, "--kills", "ten"}, kUsage, {"--kills"}},
    {{"chaos", "--store", kStore, "--kills", "0"}, kUsage, {"--kills"}},
    {{"chaos", "--store", kStore, "--kills", "100001"}, kUsage, {"--kills"}},
    {{"chaos", "--store", kStore, "--rate", "-5"}, kUsage, {"--rate"}},
    {{"chaos", "--store", kStore, "--rate", "0"}, kUsage, {"--rate"}},
    {{"chaos", "--store", kStore, "--drain-timeout", "99999999999999999999"},
     kUsage,
     {"--drain-timeout"}},
    {{"chaos", "--store", kStore, "--drain-timeout", "0"}, kUsage, {"--drain-timeout"}},
    {{"chaos", "--kills", "1"}, kUsage, {"--store"}},
    {{"inbox", "failed", "--store", kStore, "--limit", "0"}, kUsage, {"--limit"}},
    {{"inbox", "failed", "--store", kStore, "--limit", "1000001"}, kUsage, {"--limit"}},
    {{"inbox", "failed", "--store", kStore, "--error-like", ""}, kUsage, {"--error-like"}},
    {{"inbox", "failed", "--store", "memory:"}, kRefused, {"memory"}},
    {{"sagas", "list", "--store", kStore, "--status", "running"}, kUsage, {"--status"}},
    {{"sagas", "list", "--store", kStore, "--limit", "0"}, kUsage, {"--limit"}},
    {{"sagas", "list", "--store", kStore, "--limit", "-1"}, kUsage, {"--limit"}},
    {{"sagas", "list", "--store", kStore, "--limit", "1000001"}, kUsage, {"--limit"}},
    {{"sagas", "list", "--store", kStore, "--older-than", "5x"}, kUsage, {"--older-than"}},
    {{"sagas", "list", "--store", kStore, "--older-than", "0d"}, kUsage, {"--older-than"}},
    {{"sagas", "list", "--store", kStore, "--tenant", ""}, kRefused, {"--tenant"}},
    {{"sagas", "list", "--store", kStore, "--tenant", "acme", "--all-tenants"},
     kUsage,
     {"--tenant", "--all-tenants"}},
    {{"sagas", "list", "--store", kStore, "--type", ""}, kRefused, {"--type"}},
    {{"sagas", "list", "--store", kStore, "--type", "\xc3"}, kRefused, {"UTF-8"}},
    {{"sagas", "list", "--store", "memory:"}, kRefused, {"memory"}},
    {{"projections", "reset", "--store", kStore, "--consumer", "p", "--to", "-1"},
     kUsage,
     {"--to"}},
    {{"projections", "reset", "--store", kStore, "--consumer", "p", "--to", "ten"},
     kUsage,
     {"--to"}},
    {{"projections", "reset", "--store", kStore, "--consumer", "p", "--to", "9223372036854775808"},
     kUsage,
     {"--to"}},
    {{"projections", "reset", "--store", kStore, "--consumer", "p"}, kUsage, {"--to"}},
    {{"projections", "reset", "--store", kStore, "--consumer", "", "--to", "0"},
     kRefused,
     {"--consumer"}},
    {{"projections", "reset", "--store", kStore, "--consumer", "p", "--to", "0", "--tenant", ""},
     kRefused,
     {"--tenant"}},
    {{"projections", "rebuild", "--store", kStore, "--consumer", ""}, kRefused, {"--consumer"}},
    {{"projections", "rebuild", "--store", kStore, "--consumer", "\xff"}, kRefused, {"--consumer"}},
    {{"projections", "rebuild", "--store", kStore, "--consumer", "p", "--batch", "0"},
     kUsage,
     {"--batch"}},
    {{"projections", "rebuild", "--store", kStore}, kUsage, {"--consumer"}},
    {{"projections", "status", "--store", kStore, "--consumer", ""}, kRefused, {"--consumer"}},
    {{"projections", "status", "--store", kStore, "--limit", "0"}, kUsage, {"--limit"}},
    {{"projections", "status", "--store", "memory:"}, kRefused, {"memory"}},
    {{"chaos", "--store", kStore, "--clock-skew", "0s"}, kUsage, {"--clock-skew"}},
    {{"chaos", "--store", kStore, "--clock-skew", "25h"}, kUsage, {"--clock-skew"}},
    {{"chaos", "--store", kStore, "--clock-skew", "10"}, kUsage, {"--clock-skew"}},
    {{"chaos", "--store", kStore, "--clock-skew", "-5s"}, kUsage, {"--clock-skew"}},
    {{"chaos", "--store", "memory:"}, kRefused, {"memory"}},
    {{"chaos", "--store", "sqlite::memory:"}, kRefused, {"memory"}},
    {{"chaos", "--store", kStore, "--transport", "nosuch://x"}, kRefused, {"nosuch"}},
    // soak
    {{"soak", "--store", kStore, "--rate", "0"}, kUsage, {"--rate"}},
    {{"soak", "--store", kStore, "--rate", "10001"}, kUsage, {"--rate"}},
    {{"soak", "--store", kStore, "--duration", "5"}, kUsage, {"--duration"}},
    {{"soak", "--store", kStore, "--duration", "0s"}, kUsage, {"--duration"}},
    {{"soak", "--store", kStore, "--duration", "36501d"}, kUsage, {"--duration"}},
    {{"soak", "--store", kStore, "--duration", "1s", "--sample-every", "1s"},
     kUsage,
     {"--duration"}},
    {{"soak", "--store", kStore, "--retention", "-1d"}, kUsage, {"--retention"}},
    {{"soak", "--store", "sqlite::memory:"}, kRefused, {"memory"}},
    // keys
    {plus(keys_inbox, {"--tenant", "acme", "--provider", "nosuch"}), kUsage, {"--provider"}},
    {plus(keys_inbox, {"--tenant", ""}), kRefused, {"tenant"}},
    {plus(keys_inbox, {"--tenant", "\xff"}), kRefused, {"UTF-8"}},
    {{"keys", "inbox", "--provider", "dynamodb", "--tenant", "acme", "--handler", "H"},
     kUsage,
     {"--message-id"}},
    {{"keys", "stream", "--provider", "firestore", "--tenant", "acme", "--aggregate-type", "o",
      "--aggregate-id", "a", "--version", "-1"},
     kUsage,
     {"--version"}},
    {{"keys", "stream", "--provider", "firestore", "--tenant", "acme", "--aggregate-type", "o",
      "--aggregate-id", "a", "--version", "ten"},
     kUsage,
     {"--version"}},
    {{"keys", "stream", "--provider", "dynamodb", "--tenant", "acme", "--aggregate-type", "o",
      "--aggregate-id", "a", "--version", "3"},
     kUsage,
     {"--version"}},
    {{"keys", "stream", "--provider", "dynamodb", "--tenant", "acme", "--aggregate-type", "",
      "--aggregate-id", "a"},
     kRefused,
     {"aggregate type"}},
    {{"keys", "saga", "--provider", "dynamodb", "--tenant", "acme", "--saga-type", "t", "--saga-id",
      "\xc3"},
     kRefused,
     {"UTF-8"}},
    {{"keys", "snapshot", "--provider", "unknown", "--tenant", "acme", "--aggregate-type", "o",
      "--aggregate-id", "a"},
     kUsage,
     {"--provider"}},
    // inbox
    {{"inbox", "stats", "--store", kStore, "--tenant", ""}, kRefused, {"tenant"}},
    {{"inbox", "stats", "--store", kStore, "--tenant", "\xfe"}, kRefused, {"UTF-8"}},
    {{"inbox", "cleanup", "--store", kStore, "--all-tenants", "--older-than", "0d"},
     kUsage,
     {"--older-than"}},
    {{"inbox", "cleanup", "--store", kStore, "--all-tenants", "--older-than", "1d", "--batch", "0"},
     kUsage,
     {"--batch"}},
    {{"inbox", "cleanup", "--store", kStore, "--all-tenants", "--older-than", "1d", "--batch",
      "-1"},
     kUsage,
     {"--batch"}},
    {{"inbox", "cleanup", "--store", kStore, "--older-than", "1d"}, kUsage, {"--all-tenants"}},
    {{"inbox", "cleanup", "--store", kStore, "--older-than", "1d", "--all-tenants", "--tenant",
      "acme"},
     kUsage,
     {"--all-tenants"}},
    // inbox retry: one entry named by its whole key, or --all; no empty text
    {{"inbox", "retry", "--store", kStore}, kUsage, {"--all"}},
    {{"inbox", "retry", "--store", kStore, "--all", "--tenant", "acme", "--message-id", "m",
      "--handler-type", "H"},
     kUsage,
     {"--all"}},
    {{"inbox", "retry", "--store", kStore, "--tenant", "acme", "--message-id", "m"},
     kUsage,
     {"--handler-type"}},
    {{"inbox", "retry", "--store", kStore, "--message-id", "m", "--handler-type", "H"},
     kUsage,
     {"--tenant"}},
    {{"inbox", "retry", "--store", kStore, "--tenant", "acme", "--message-id", "", "--handler-type",
      "H"},
     kUsage,
     {"--message-id"}},
    {{"inbox", "retry", "--store", kStore, "--tenant", "acme", "--message-id", "m",
      "--handler-type", "H", "--error-like", "boom"},
     kUsage,
     {"--error-like"}},
    {{"inbox", "retry", "--store", kStore, "--all", "--error-like", ""}, kUsage, {"--error-like"}},
    {{"inbox", "retry", "--store", kStore, "--all", "--tenant", ""},
     kRefused,
     {"--tenant", "empty"}},
    {{"inbox", "retry", "--store", kStore, "--all", "--tenant", "\xfe"}, kRefused, {"UTF-8"}},
    {{"inbox", "retry", "--store", kStore, "--all", "--error-like", "\xff"}, kRefused, {"UTF-8"}},
    {{"inbox", "retry", "--store", "memory:", "--all"}, kRefused, {"memory"}},
    // migrate
    {{"migrate", "scan", "--store", kStore, "--examples", "1001"}, kUsage, {"--examples"}},
    {{"migrate", "scan", "--store", kStore, "--examples", "-1"}, kUsage, {"--examples"}},
    {{"migrate", "tenant-rekey", "--store", kStore, "--tenant", ""}, kRefused, {"tenant"}},
    {{"migrate", "inbox-ids", "--provider", "nosuch"}, kUsage, {"--provider"}},
    // `migrate scan` reads only document stores (a SQL store keys by columns and is not
    // opened), so its URL cases are theirs.
    {{"migrate", "scan", "--store", ""}, kRefused, {"URL"}},
    {{"migrate", "scan", "--store", "nosuch://x"}, kRefused, {"nosuch"}},
    {{"migrate", "scan", "--store", "dynamodb://127.0.0.1:1?region=us-east-1"},
     kRefused,
     {"127.0.0.1"}},
    {{"migrate", "scan", "--store",
      "firestore://127.0.0.1:1?project=p&token=" + std::string(kSecret)},
     kRefused,
     {"token"}},
    {{"migrate", "scan", "--store", "firestore://127.0.0.1:1?project=p"}, kRefused, {"127.0.0.1"}},
    // events, sagas
    {plus(events, plus(stream, {"--from-version", "-1"})), kUsage, {"--from-version"}},
    {plus(events, plus(stream, {"--from-version", "ten"})), kUsage, {"--from-version"}},
    {plus(events, plus(stream, {"--from-version", "9223372036854775808"})),
     kUsage,
     {"--from-version"}},
    {plus(events, {"--tenant", "", "--aggregate-type", "o", "--aggregate-id", "a"}),
     kRefused,
     {"tenant"}},
    {plus(events, {"--tenant", "acme", "--aggregate-type", "o", "--aggregate-id", "\xff"}),
     kRefused,
     {"UTF-8"}},
    {{"sagas", "show", "--store", kStore, "--tenant", "acme", "--saga-type", "t", "--saga-id",
      "\xff"},
     kRefused,
     {"UTF-8"}},
    {{"sagas", "show", "--store", kStore, "--tenant", "acme"}, kUsage, {"--saga"}},
    // no such command or option
    {{"nosuch"}, kUsage, {"nosuch", "subcommand"}},
    {{"inbox", "stats", "--store", kStore, "--nosuch"}, kUsage, {"--nosuch"}},
#if DOCKET_TOOL_HAS_BENCH
    {{"bench", "inbox", "--store", kStore, "--messages", "ten"}, kUsage, {"--messages"}},
    {{"bench", "inbox", "--store", kStore, "--messages", "10", "--segment", "0"},
     kUsage,
     {"--segment"}},
    {{"bench", "claim", "--store", kStore, "--threads", "-1"}, kUsage, {"--threads"}},
    {{"bench", "claim", "--store", kStore, "--threads", "0"}, kUsage, {"--threads is 0"}},
    {{"bench", "claim", "--store", kStore, "--duplicates", "-5"}, kUsage, {"--duplicates is -5"}},
    {{"bench", "events", "--store", kStore, "--appends", "0"}, kUsage, {"--appends is 0"}},
    {{"bench", "inbox", "--store", kStore, "--messages", "10", "--batch", "0"},
     kUsage,
     {"--batch is 0"}},
    {{"bench", "outbox", "--store", kStore, "--relays", "0"}, kUsage, {"--relays has 0"}},
    {{"bench", "keys", "--seconds", "0"}, kUsage, {"--seconds is 0"}},
    {{"bench", "keys", "--seconds", "1", "--iterations", "5"},
     kUsage,
     {"--seconds", "--iterations"}},
    {{"bench", "keys", "--provider", "nosuch"}, kUsage, {"--provider"}},
    {{"bench", "keys", "--iterations", "99999999999999999999"}, kUsage, {"--iterations"}},
    {{"bench", "latency", "--store", kStore, "--rate", "0"}, kUsage, {"--rate"}},
    {{"bench", "latency", "--store", kStore, "--messages", "2", "--rounds", "3"},
     kUsage,
     {"--rounds is 3", "--messages"}},
    {{"bench", "latency", "--store", kStore, "--idle-seconds", "0"}, kUsage, {"--idle-seconds"}},
    {{"bench", "latency", "--store", kStore, "--transport", "nosuch://x"}, kRefused, {"nosuch"}},
    // A store that is not there: named, with what to check, in seconds.
    {{"bench", "latency", "--store", "dynamodb://127.0.0.1:1?region=us-east-1"},
     kRefused,
     {"could not connect", "Is the server running there?"}},
    // A broker URL without its exchange is refused before any store is touched.
    {{"bench", "relay", "--store", "dynamodb://127.0.0.1:1?region=us-east-1", "--transport",
      "amqp://u:p@127.0.0.1:1/v"},
     kRefused,
     {"the URL names no exchange", "?exchange=<name>"}},
    {{"bench", "relay", "--store", kStore, "--transport", "nosuch://x"}, kRefused, {"nosuch"}},
    {{"bench", "relay", "--store", kStore, "--transport", ""}, kRefused, {"transport"}},
    // The range is checked before the broker is reached: no broker is needed here.
    {{"bench", "relay", "--store", kStore, "--transport", "amqp://127.0.0.1:1/?exchange=x",
      "--batch", "0"},
     kUsage,
     {"--batch has 0"}},
#endif
    // dashboard and metrics: --listen checked before the store is opened or a port bound
    {{"dashboard", "--store", kStore, "--listen", "127.0.0.1:65536"},
     kUsage,
     {"dashboard: --listen '127.0.0.1:65536' has a port out of range"}},
    {{"dashboard", "--store", kStore, "--listen", "example.com:8088"},
     kUsage,
     {"--listen", "numeric IPv4 address"}},
    {{"dashboard", "--store", kStore, "--listen", "0.0.0.0:0"}, kUsage, {"--token"}},
    {{"dashboard", "--store", kStore, "--listen", ""}, kUsage, {"--listen"}},
#if DOCKET_TOOL_HAS_METRICS
    {{"metrics", "--store", kStore, "--listen", "127.0.0.1:-1"},
     kUsage,
     {"metrics: --listen '127.0.0.1:-1'", "127.0.0.1:9464"}},
    {{"metrics", "--store", kStore, "--listen", "[::1"}, kUsage, {"closing ']'"}},
    {{"metrics", "--store", "memory:"}, kRefused, {"memory:"}},
#endif
    // outbox (issue 34): only --status parked; filters, limits and ids checked before
    // the store is opened
    {{"outbox"}, kUsage, {"subcommand"}},
    {{"outbox", "list", "--store", kStore}, kUsage, {"--status"}},
    {{"outbox", "list", "--store", kStore, "--status", "waiting"},
     kUsage,
     {"--status", "parked, pending, scheduled"}},
    {{"outbox", "list", "--store", kStore, "--status", ""}, kUsage, {"--status"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--limit", "0"},
     kUsage,
     {"--limit is 0"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--limit", "-1"},
     kUsage,
     {"--limit"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--limit", "1000001"},
     kUsage,
     {"--limit"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--limit", "99999999999999999999"},
     kUsage,
     {"--limit"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--since", "5"},
     kUsage,
     {"--since"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--since", "0d"},
     kUsage,
     {"--since"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--since", "-1d"},
     kUsage,
     {"--since"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--since", "36501d"},
     kUsage,
     {"--since"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--error-like", ""},
     kUsage,
     {"--error-like"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--destination", ""},
     kUsage,
     {"--destination"}},
    {{"outbox", "list", "--store", kStore, "--status", "parked", "--error-like", "\xff"},
     kRefused,
     {"UTF-8"}},
    {{"outbox", "list", "--store", "memory:", "--status", "parked"}, kRefused, {"memory"}},
    {{"outbox", "replay", "--store", kStore}, kUsage, {"--id", "--all"}},
    {{"outbox", "replay", "--store", kStore, "--all", "--id", "x"}, kUsage, {"--id", "--all"}},
    {{"outbox", "replay", "--store", kStore, "--id", "x", "--destination", "d"}, kUsage, {"--all"}},
    {{"outbox", "replay", "--store", kStore, "--id", ""}, kUsage, {"--id"}},
    {{"outbox", "replay", "--store", kStore, "--id", "\xc3"}, kRefused, {"UTF-8"}},
    {{"outbox", "replay", "--store", kStore, "--all", "--limit", "0"}, kUsage, {"--limit is 0"}},
    {{"outbox", "replay", "--store", kStore, "--all", "--since", "1.5d"}, kUsage, {"--since"}},
    {{"outbox", "replay", "--store", "sqlite::memory:", "--id", "x"}, kRefused, {"memory"}},
    {{"outbox", "skip", "--store", kStore}, kUsage, {"--id"}},
    {{"outbox", "skip", "--store", kStore, "--id", ""}, kUsage, {"--id"}},
    {{"outbox", "skip", "--store", kStore, "--id", "\xff"}, kRefused, {"UTF-8"}},
    {{"outbox", "skip", "--store", kStore, "--id", "x", "--all"}, kUsage, {"--all"}},
    {{"outbox", "cancel", "--store", kStore}, kUsage, {"--id"}},
    {{"outbox", "cancel", "--store", kStore, "--id", ""}, kUsage, {"--id"}},
    {{"outbox", "cancel", "--store", kStore, "--id", "\xfe"}, kRefused, {"UTF-8"}},
    {{"outbox", "cancel", "--store", "sqlite::memory:", "--id", "x"}, kRefused, {"memory"}},
    {{"outbox", "stats", "--store", "sqlite::memory:"}, kRefused, {"memory"}},
    {{"outbox", "stats"}, kUsage, {"--store"}},
    {{"health"}, kUsage, {"--store"}},
    {{"outbox", "purge-parked", "--store", kStore}, kUsage, {"--older-than"}},
    {{"outbox", "purge-parked", "--store", kStore, "--older-than", "1.5d"},
     kUsage,
     {"--older-than"}},
    {{"outbox", "purge-parked", "--store", kStore, "--older-than", "5d", "--batch", "0"},
     kUsage,
     {"--batch is 0"}},
    {{"outbox", "purge-parked", "--store", "sqlite::memory:", "--older-than", "5d"},
     kRefused,
     {"memory"}},
    {{"health", "--store", kStore, "--max-outbox-age", "5x"}, kUsage, {"--max-outbox-age"}},
    {{"health", "--store", kStore, "--max-projection-lag", "0s"}, kUsage, {"--max-projection-lag"}},
    {{"health", "--store", kStore, "--max-parked", "-1"}, kUsage, {"--max-parked"}},
    {{"health", "--host-file", "/tmp/h.json", "--max-host-age", "0s"}, kUsage, {"--max-host-age"}},
    {{"health", "--host-file", "/tmp/h.json", "--projection", "p"},
     kUsage,
     {"--projection needs --store"}},
    {{"health", "--store", "sqlite::memory:"}, kRefused, {"memory"}},
  };
  for (const auto& command : store_commands()) {
    for (const BadUrl& bad : bad_store_urls()) {
      cases.push_back({plus(plus(command, {"--store"}), {bad.url}), kRefused, bad.mentions});
    }
  }
  return cases;
}

std::string shown(const std::vector<std::string>& args) {
  std::string out = "docket";
  for (const std::string& arg : args) {
    out += " '" + arg + "'";
  }
  return out;
}

TEST(BadInputCatalogue, EveryCaseEndsInSecondsWithItsStatusAndAMessageAndNoSecret) {
  const auto started = std::chrono::steady_clock::now();
  for (const BadInput& bad : option_cases()) {
    const std::string what = shown(bad.args);
    const ToolRun run = run_docket_within(bad.args, kCaseLimit);
    EXPECT_FALSE(run.timed_out) << what;
    EXPECT_EQ(run.exit_code, bad.exit_code) << what << "\n" << describe(run);
    EXPECT_THAT(run.err, ::testing::StartsWith("docket: ")) << what;
    bool named = false;
    for (const std::string& mention : bad.mentions) {
      named = named || run.err.find(mention) != std::string::npos;
    }
    EXPECT_TRUE(named) << what << ": stderr names none of its problem's words\n" << run.err;
    EXPECT_THAT(run.out + run.err, Not(HasSubstr(kSecret))) << what;
    // The demo prints its header once its pipeline has started, never before a refusal;
    // the migration prints what it is about to do on stderr only.
    EXPECT_EQ(run.out, "") << what;
  }
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::seconds(60));
}

}  // namespace
}  // namespace docket::testing
