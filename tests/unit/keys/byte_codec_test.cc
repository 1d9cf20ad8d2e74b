// The key codecs' optimised paths (the one-pass scalar loop, the SSSE3, AVX2 and AVX-512
// kernels, the measuring pass and the exact writer) against reference_codec.h, over random
// byte strings (valid UTF-8, random bytes, valid text with one defect) and over every
// awkward sequence at every position around the kernels' 16-, 32- and 64-byte blocks. Every path
// must accept exactly the well-formed strings, write exactly the reference's bytes,
// and write nothing past the room it was given.
#include "keys/byte_codec.h"

#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "docket/core/utf8.h"
#include "docket/keys/provider.h"
#include "keys/term_rules.h"
#include "reference_codec.h"

namespace docket::keys::byte_codec_test {
namespace {

using detail::ByteCodec;
using reference::Escapes;

struct Codec {
  const char* name;
  const ByteCodec& codec;
  Escapes escapes;
};

const ByteCodec kCosmosAlso{
    detail::kReservedBytes.with("/\\?# ").with_range(0x00, 0x1F).with_range(0x7F, 0x7F)};

std::vector<Codec> codecs() {
  return {{"Firestore", detail::term_codec(Provider::kFirestore), Escapes::kFull},
          {"Elasticsearch", detail::term_codec(Provider::kElasticsearch), Escapes::kFull},
          {"Cosmos DB", detail::term_codec(Provider::kCosmosDb), Escapes::kCosmos},
          {"MongoDB", detail::term_codec(Provider::kMongoDb), Escapes::kNarrow},
          {"Redis", detail::term_codec(Provider::kRedis), Escapes::kNarrow},
          {"DynamoDB", detail::term_codec(Provider::kDynamoDb), Escapes::kNarrow},
          {"Firestore saga id", detail::firestore_saga_id_codec(), Escapes::kFirestoreSagaId},
          {"verbatim", detail::verbatim_codec(), Escapes::kNone},
          {"built at run time", kCosmosAlso, Escapes::kCosmos}};
}

constexpr char kGuard = '\x5A';
constexpr std::size_t kGuardBytes = 64;

std::string hex(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string text;
  for (const char c : bytes) {
    const auto b = static_cast<unsigned char>(c);
    text += kHex[b >> 4];
    text += kHex[b & 0x0F];
    text += ' ';
  }
  return text;
}

using WritePath = char* (*)(const ByteCodec&, std::string_view, char*);

char* dispatched(const ByteCodec& codec, std::string_view text, char* out) {
  return codec.write_validated(text, out);
}

char* scalar(const ByteCodec& codec, std::string_view text, char* out) {
  return codec.write_validated_scalar(text, out);
}

char* ssse3(const ByteCodec& codec, std::string_view text, char* out) {
  return detail::write_validated_ssse3(codec.simd_escapes(), text.data(), text.size(), out);
}

char* avx2(const ByteCodec& codec, std::string_view text, char* out) {
  return detail::write_validated_avx2(codec.simd_escapes(), text.data(), text.size(), out);
}

char* avx512(const ByteCodec& codec, std::string_view text, char* out) {
  return detail::write_validated_avx512(codec.simd_escapes(), text.data(), text.size(), out);
}

// One one-pass path on `text`: accepted exactly when valid, the reference's bytes,
// nothing written past 3 * size + kWriteSlack.
void expect_one_pass(const char* path_name, WritePath path, const ByteCodec& codec,
                     std::string_view text, bool valid, const std::string& expected) {
  const std::size_t room = ByteCodec::kMaxExpansion * text.size() + ByteCodec::kWriteSlack;
  std::string buffer(room + kGuardBytes, kGuard);
  const char* end = path(codec, text, buffer.data());
  EXPECT_EQ(end != nullptr, valid) << path_name;
  if (end != nullptr && valid) {
    EXPECT_EQ(std::string_view(buffer.data(), static_cast<std::size_t>(end - buffer.data())),
              expected)
        << path_name;
  }
  EXPECT_EQ(buffer.substr(room), std::string(kGuardBytes, kGuard)) << path_name << " wrote past";
}

void expect_matches_reference(const Codec& c, std::string_view text) {
  SCOPED_TRACE(std::string(c.name) + " on bytes " + hex(text));
  const bool valid = reference::valid_utf8(text);
  const std::string expected = reference::encode(c.escapes, text);
  EXPECT_EQ(is_valid_utf8(text), valid) << "find_utf8_defect disagrees with Table 3-7";

  EXPECT_EQ(c.codec.encoded_size(text), expected.size());
  EXPECT_EQ(c.codec.validated_encoded_size(text),
            valid ? std::optional<std::size_t>(expected.size()) : std::nullopt);
  std::string exact(expected.size() + kGuardBytes, kGuard);
  EXPECT_EQ(c.codec.write(text, exact.data()), exact.data() + expected.size());
  EXPECT_EQ(exact, expected + std::string(kGuardBytes, kGuard));

  expect_one_pass("write_validated", dispatched, c.codec, text, valid, expected);
  expect_one_pass("scalar loop", scalar, c.codec, text, valid, expected);
  if (c.codec.simd_usable() && text.size() >= ByteCodec::kSimdMinBytes) {
    if (detail::ssse3_kernel_available()) {
      expect_one_pass("SSSE3 kernel", ssse3, c.codec, text, valid, expected);
    }
    if (detail::avx2_kernel_available()) {
      expect_one_pass("AVX2 kernel", avx2, c.codec, text, valid, expected);
    }
    if (detail::avx512_kernel_available()) {
      expect_one_pass("AVX-512 kernel", avx512, c.codec, text, valid, expected);
    }
  }
}

// The CPU's own answer, asked apart from the code under test ("avx512": every feature
// the AVX-512 kernel is compiled for).
bool cpu_has(const char* feature) {
  __builtin_cpu_init();
  const std::string_view name(feature);
  if (name == "avx512") {
    return __builtin_cpu_supports("avx512f") != 0 && __builtin_cpu_supports("avx512bw") != 0 &&
           __builtin_cpu_supports("avx512vbmi") != 0 &&
           __builtin_cpu_supports("avx512vbmi2") != 0 && __builtin_cpu_supports("bmi2") != 0 &&
           __builtin_cpu_supports("popcnt") != 0;
  }
  if (name == "avx2") {
    return __builtin_cpu_supports("avx2") != 0;
  }
  return __builtin_cpu_supports("ssse3") != 0;
}

TEST(ByteCodec, TakesTheFastestPathTheCpuRuns) {
#if defined(__x86_64__) || defined(__i386__)
  EXPECT_EQ(detail::avx512_kernel_available(), cpu_has("avx512"));
  EXPECT_EQ(detail::avx2_kernel_available(), cpu_has("avx2"));
  EXPECT_EQ(detail::ssse3_kernel_available(), cpu_has("ssse3"));
  const detail::WritePath fastest = cpu_has("avx512")  ? detail::WritePath::kAvx512
                                    : cpu_has("avx2")  ? detail::WritePath::kAvx2
                                    : cpu_has("ssse3") ? detail::WritePath::kSsse3
                                                       : detail::WritePath::kScalar;
#else
  const detail::WritePath fastest = detail::WritePath::kScalar;
#endif
  EXPECT_EQ(detail::write_path(), fastest);
  EXPECT_TRUE(detail::write_path_available(detail::WritePath::kScalar));
}

TEST(ByteCodec, UseWritePathRefusesAPathTheCpuLacksAndSwitchesToOneItHas) {
  const detail::WritePath before = detail::write_path();
  for (const detail::WritePath path : {detail::WritePath::kScalar, detail::WritePath::kSsse3,
                                       detail::WritePath::kAvx2, detail::WritePath::kAvx512}) {
    const bool available = detail::write_path_available(path);
    EXPECT_EQ(detail::use_write_path(path), available);
    if (available) {
      EXPECT_EQ(detail::write_path(), path);
      // A long term goes the chosen way and is still the reference's.
      const std::string text(100, ':');
      std::string out(3 * text.size() + ByteCodec::kWriteSlack, '\0');
      const char* end = detail::percent_encoding_codec().write_validated(text, out.data());
      ASSERT_NE(end, nullptr);
      EXPECT_EQ(std::string_view(out.data(), static_cast<std::size_t>(end - out.data())),
                reference::encode(Escapes::kFull, text));
    }
  }
  EXPECT_TRUE(detail::use_write_path(before));
}

TEST(ByteCodec, EveryProviderCodecCanUseTheKernel) {
  for (const Codec& c : codecs()) {
    EXPECT_TRUE(c.codec.simd_usable()) << c.name;
  }
}

TEST(ByteCodec, RandomStringsMatchTheReference) {
  const std::uint64_t run_seed = reference::seed();
  SCOPED_TRACE("replay with DOCKET_PROPERTY_SEED=" + std::to_string(run_seed));
  reference::TermGenerator generate(run_seed);
  const std::vector<Codec> all = codecs();
  int valid = 0;
  int invalid = 0;
  for (int i = 0; i < 20000 && !::testing::Test::HasFailure(); ++i) {
    const std::string text = generate.next();
    (reference::valid_utf8(text) ? valid : invalid)++;
    for (const Codec& c : all) {
      expect_matches_reference(c, text);
    }
  }
  // The generator gives both kinds in earnest.
  EXPECT_GT(valid, 5000);
  EXPECT_GT(invalid, 5000);
}

// Each sequence at every offset around the first two block boundaries of every kernel
// (16 and 32 bytes, 32 and 64, 64 and 128), with text after it of lengths that leave
// every kernel each kind of last block: a kernel checks each byte against the three
// before it, across blocks, and pads the last block.
TEST(ByteCodec, SequencesAtEveryBlockPositionMatchTheReference) {
  static constexpr std::string_view kSequences[] = {"\xC3\xBC",
                                                    "\xE2\x82\xAC",
                                                    "\xF0\x9D\x84\x9E",
                                                    "\xF4\x8F\xBF\xBF",
                                                    "\xEF\xBF\xBF",
                                                    "\xED\x9F\xBF",
                                                    "\xEE\x80\x80",
                                                    "\xC2\x80",
                                                    "\xDF\xBF",
                                                    "\xE0\xA0\x80",
                                                    "\xF0\x90\x80\x80",
                                                    ":%_/ \x7F",
                                                    "\xC3",
                                                    "\xE2\x82",
                                                    "\xF0\x9D\x84",
                                                    "\x80",
                                                    "\xBF\xBF",
                                                    "\xC0\x80",
                                                    "\xC1\xBF",
                                                    "\xE0\x80\x80",
                                                    "\xE0\x9F\xBF",
                                                    "\xED\xA0\x80",
                                                    "\xED\xBF\xBF",
                                                    "\xF0\x80\x80\x80",
                                                    "\xF0\x8F\xBF\xBF",
                                                    "\xF4\x90\x80\x80",
                                                    "\xF5\x80\x80\x80",
                                                    "\xF8\x88\x80\x80\x80",
                                                    "\xFE",
                                                    "\xFF",
                                                    "\xC3\xBC\xBC",
                                                    "\xE2\x82\xAC\x80"};
  const std::vector<Codec> all = codecs();
  for (const std::string_view sequence : kSequences) {
    for (std::size_t before = 0; before <= 136; before = before == 72 ? 116 : before + 1) {
      for (const std::size_t after :
           {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 47, 48, 49, 62, 63, 64, 65}) {
        const std::string text =
            std::string(before, 'a') + std::string(sequence) + std::string(after, '~');
        for (const Codec& c : all) {
          expect_matches_reference(c, text);
        }
        if (::testing::Test::HasFailure()) {
          return;
        }
      }
    }
  }
}

// Long terms in which every byte takes the slow path of some codec: multi-byte text
// and separators, escaped three bytes for one, over many blocks.
TEST(ByteCodec, LongMixedTermsMatchTheReference) {
  std::string text;
  for (int i = 0; i < 300; ++i) {
    text += "\xC3\xBC\xE2\x82\xAC\xF0\x9D\x84\x9E:%_/";
    for (const Codec& c : codecs()) {
      expect_matches_reference(c, text);
    }
  }
}

}  // namespace
}  // namespace docket::keys::byte_codec_test
