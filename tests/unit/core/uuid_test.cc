#include "docket/core/uuid.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <latch>
#include <thread>
#include <unordered_set>
#include <vector>

#include "docket/core/error.h"

namespace docket {
namespace {

constexpr int kIds = 100'000;

std::uint64_t system_millis() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                        std::chrono::system_clock::now().time_since_epoch())
                                        .count());
}

int variant_bits(const Uuid& id) {
  return id.bytes()[8] >> 6;
}

TEST(UuidTest, NilUuid) {
  const Uuid nil;
  EXPECT_TRUE(nil.is_nil());
  EXPECT_EQ(nil.version(), 0);
  EXPECT_EQ(nil.to_string(), "00000000-0000-0000-0000-000000000000");
}

TEST(UuidTest, V4HasVersionAndVariantBits) {
  for (int i = 0; i < 1000; ++i) {
    const Uuid id = Uuid::v4();
    EXPECT_EQ(id.version(), 4);
    EXPECT_EQ(variant_bits(id), 0b10);
    EXPECT_EQ(id.to_string()[14], '4');
  }
}

TEST(UuidTest, V4IdsAreUnique) {
  std::unordered_set<std::string> seen;
  for (int i = 0; i < kIds; ++i) {
    ASSERT_TRUE(seen.insert(Uuid::v4().to_string()).second) << "duplicate after " << i;
  }
}

TEST(UuidTest, V4BitsAreNotConstant) {
  // Each of the 122 random bits must take both values over a few hundred ids; a stuck
  // bit (e.g. a buffer reused without refill) would show here.
  Uuid::Bytes ones{};
  Uuid::Bytes zeros{};
  for (int i = 0; i < 256; ++i) {
    const Uuid id = Uuid::v4();
    const Uuid::Bytes& b = id.bytes();
    for (std::size_t k = 0; k < b.size(); ++k) {
      ones[k] |= b[k];
      zeros[k] |= static_cast<std::uint8_t>(~b[k]);
    }
  }
  for (std::size_t k = 0; k < 16; ++k) {
    const std::uint8_t fixed = k == 6 ? 0xF0 : k == 8 ? 0xC0 : 0x00;
    EXPECT_EQ(ones[k] & zeros[k] & ~fixed & 0xFF, ~fixed & 0xFF) << "byte " << k;
  }
}

TEST(UuidTest, ForkedChildDoesNotRepeatTheParentsIds) {
  // Draw once so that this thread's random buffer holds unused bytes when forking.
  static_cast<void>(Uuid::v4());
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const Uuid::Bytes bytes = Uuid::v4().bytes();
    const bool written =
        ::write(pipe_fds[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
    ::_exit(written ? 0 : 1);
  }
  ::close(pipe_fds[1]);
  const Uuid parent_id = Uuid::v4();
  Uuid::Bytes child_bytes{};
  const ssize_t got = ::read(pipe_fds[0], child_bytes.data(), child_bytes.size());
  ::close(pipe_fds[0]);
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  ASSERT_EQ(got, static_cast<ssize_t>(child_bytes.size()));
  EXPECT_NE(Uuid(child_bytes), parent_id);
}

TEST(UuidTest, V7HasVersionAndVariantBits) {
  for (int i = 0; i < 1000; ++i) {
    const Uuid id = Uuid::v7();
    EXPECT_EQ(id.version(), 7);
    EXPECT_EQ(variant_bits(id), 0b10);
  }
}

TEST(UuidTest, V7TimestampIsTheSystemClock) {
  // Ids made in a burst may run ahead of the clock (counter overflow advances the
  // timestamp field); wait until the clock has passed every id made so far.
  const std::uint64_t latest = Uuid::v7().unix_millis();
  while (system_millis() <= latest) {
    std::this_thread::yield();
  }
  const std::uint64_t before = system_millis();
  const Uuid id = Uuid::v7();
  const std::uint64_t after = system_millis();
  EXPECT_GE(id.unix_millis(), before);
  EXPECT_LE(id.unix_millis(), after);
}

TEST(UuidTest, V7IsStrictlyIncreasingOnOneThread) {
  std::vector<Uuid> ids;
  ids.reserve(kIds);
  for (int i = 0; i < kIds; ++i) {
    ids.push_back(Uuid::v7());
  }
  for (std::size_t i = 1; i < ids.size(); ++i) {
    ASSERT_LT(ids[i - 1], ids[i]) << "at " << i << ": " << ids[i - 1].to_string() << " then "
                                  << ids[i].to_string();
  }
}

TEST(UuidTest, V7IsStrictlyIncreasingAndUniqueAcrossThreads) {
  constexpr int kThreads = 4;
  std::vector<std::vector<Uuid>> per_thread(kThreads);
  std::latch start(kThreads);
  std::vector<std::thread> threads;
  threads.reserve(kThreads);
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&start, &ids = per_thread[static_cast<std::size_t>(t)]] {
      ids.reserve(kIds);
      start.arrive_and_wait();
      for (int i = 0; i < kIds; ++i) {
        ids.push_back(Uuid::v7());
      }
    });
  }
  for (auto& thread : threads) {
    thread.join();
  }
  std::vector<Uuid> all;
  for (const auto& ids : per_thread) {
    ASSERT_TRUE(std::is_sorted(ids.begin(), ids.end()));
    ASSERT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end());
    all.insert(all.end(), ids.begin(), ids.end());
  }
  std::sort(all.begin(), all.end());
  EXPECT_EQ(std::adjacent_find(all.begin(), all.end()), all.end()) << "duplicate v7 id";
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kThreads * kIds));
}

TEST(UuidTest, V7AtUsesTheGivenMillisecondWhenItIsAhead) {
  const std::uint64_t ahead = Uuid::v7().unix_millis() + 2;
  const Uuid id = Uuid::v7_at(ahead);
  EXPECT_EQ(id.unix_millis(), ahead);
  EXPECT_EQ(id.version(), 7);
  // The counter starts with its top bit clear, leaving room for 2048 ids.
  EXPECT_EQ(id.bytes()[6] & 0x08, 0);
}

TEST(UuidTest, V7StaysMonotonicWhenTheClockStepsBack) {
  const std::uint64_t now = Uuid::v7().unix_millis() + 1;
  const Uuid at_now = Uuid::v7_at(now);
  const Uuid stepped_back = Uuid::v7_at(now - 60'000);
  EXPECT_LT(at_now, stepped_back);
  EXPECT_EQ(stepped_back.unix_millis(), now);
}

TEST(UuidTest, V7CounterOverflowAdvancesTheTimestamp) {
  // A stalled clock: 4097 ids in one millisecond cannot all fit the 12-bit counter.
  const std::uint64_t stalled = Uuid::v7().unix_millis() + 1;
  Uuid previous = Uuid::v7_at(stalled);
  for (int i = 0; i < 4096; ++i) {
    const Uuid next = Uuid::v7_at(stalled);
    ASSERT_LT(previous, next);
    previous = next;
  }
  EXPECT_GT(previous.unix_millis(), stalled);
}

TEST(UuidTest, V7AtRefusesATimestampBeyond48Bits) {
  try {
    Uuid::v7_at(std::uint64_t{1} << 48);
    FAIL() << "expected InvalidInputError";
  } catch (const InvalidInputError& e) {
    EXPECT_NE(std::string(e.what()).find("281474976710656 ms does not fit"), std::string::npos)
        << e.what();
  }
}

TEST(UuidTest, ToStringIsCanonicalLowerCase) {
  Uuid::Bytes bytes{};
  for (std::size_t i = 0; i < bytes.size(); ++i) {
    bytes[i] = static_cast<std::uint8_t>(0x10 * i + 0x0A);
  }
  EXPECT_EQ(Uuid(bytes).to_string(), "0a1a2a3a-4a5a-6a7a-8a9a-aabacadaeafa");
}

TEST(UuidTest, ParseRoundTrips) {
  for (int i = 0; i < 100; ++i) {
    for (const Uuid id : {Uuid::v4(), Uuid::v7()}) {
      const auto parsed = Uuid::parse(id.to_string());
      ASSERT_TRUE(parsed.has_value());
      EXPECT_EQ(*parsed, id);
    }
  }
}

TEST(UuidTest, ParseKnownValueAndReadsFields) {
  // RFC 9562 appendix A.6 example v7 id.
  const auto id = Uuid::parse("017f22e2-79b0-7cc3-98c4-dc0c0c07398f");
  ASSERT_TRUE(id.has_value());
  EXPECT_EQ(id->version(), 7);
  EXPECT_EQ(id->unix_millis(), 0x017F22E279B0u);
  EXPECT_EQ(id->bytes()[15], 0x8F);
}

TEST(UuidTest, ParseAcceptsUpperAndMixedCase) {
  const auto lower = Uuid::parse("f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
  ASSERT_TRUE(lower.has_value());
  EXPECT_EQ(Uuid::parse("F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6"), lower);
  EXPECT_EQ(Uuid::parse("F81d4FaE-7dEc-11D0-a765-00A0c91e6BF6"), lower);
  EXPECT_EQ(Uuid::parse("F81D4FAE-7DEC-11D0-A765-00A0C91E6BF6")->to_string(),
            "f81d4fae-7dec-11d0-a765-00a0c91e6bf6");
}

TEST(UuidTest, ParseRejectsEverythingElse) {
  for (std::string_view text : {
           "",
           "{f81d4fae-7dec-11d0-a765-00a0c91e6bf6}",  // braces
           "f81d4fae7dec11d0a76500a0c91e6bf6",        // no hyphens
           "f81d4fae-7dec11d0-a765-00a0c91e6bf6-",    // hyphen moved
           "f81d4fae-7dec-11d0-a765-00a0c91e6bf",     // 35 characters
           "f81d4fae-7dec-11d0-a765-00a0c91e6bf60",   // 37 characters
           "f81d4fae-7dec-11d0-a765-00a0c91e6bg6",    // non-hex
           "f81d4fae-7dec-11d0-a765_00a0c91e6bf6",    // wrong separator
           " f81d4fae-7dec-11d0-a765-00a0c91e6bf",    // leading space
           "urn:uuid:f81d4fae-7dec-11d0-a765-00a0c91e6bf6",
           "+81d4fae-7dec-11d0-a765-00a0c91e6bf6",
       }) {
    EXPECT_EQ(Uuid::parse(text), std::nullopt) << text;
  }
}

// Every byte value at every position of a valid id: accepted exactly when it is a hex
// digit where a digit belongs or the hyphen where one belongs, and then read as that
// digit's value.
TEST(UuidTest, ParseChecksEveryByteAtEveryPosition) {
  const std::string valid = "0123abcd-ef45-6789-ABCD-EF0123456789";
  const auto base = Uuid::parse(valid);
  ASSERT_TRUE(base.has_value());
  const std::string_view hex = "0123456789abcdefABCDEF";
  for (std::size_t position = 0; position < valid.size(); ++position) {
    const bool hyphen = position == 8 || position == 13 || position == 18 || position == 23;
    for (int c = 0; c < 256; ++c) {
      std::string text = valid;
      text[position] = static_cast<char>(c);
      const auto parsed = Uuid::parse(text);
      const bool acceptable =
          hyphen ? c == '-' : hex.find(static_cast<char>(c)) != std::string_view::npos;
      ASSERT_EQ(parsed.has_value(), acceptable) << "byte " << c << " at " << position;
      if (acceptable) {
        // Lower case of the same text, parsed the slow way: two digits a byte.
        std::string lower = text;
        for (char& ch : lower) {
          ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
        }
        EXPECT_EQ(parsed->to_string(), lower) << "byte " << c << " at " << position;
      }
    }
  }
}

TEST(UuidTest, OrderingIsByteWise) {
  EXPECT_LT(*Uuid::parse("00000000-0000-0000-0000-000000000001"),
            *Uuid::parse("00000000-0000-0000-0000-000000000100"));
  EXPECT_LT(*Uuid::parse("0fffffff-ffff-ffff-ffff-ffffffffffff"),
            *Uuid::parse("10000000-0000-0000-0000-000000000000"));
}

}  // namespace
}  // namespace docket
