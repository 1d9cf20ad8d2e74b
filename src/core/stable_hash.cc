#include "core/stable_hash.h"

namespace docket::core {
namespace {

std::uint64_t mix(std::uint64_t x) noexcept {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

}  // namespace

std::uint64_t stable_hash(std::uint64_t salt, std::string_view text, std::uint64_t n) noexcept {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const char c : text) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return mix(mix(h ^ mix(salt)) ^ mix(n));
}

double unit_interval(std::uint64_t hash) noexcept {
  return static_cast<double>(hash >> 11) * 0x1.0p-53;  // the top 53 bits: exact doubles
}

}  // namespace docket::core
