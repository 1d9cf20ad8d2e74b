#include "observability/exposition.h"

#include <curl/curl.h>

#include <cstdlib>
#include <limits>
#include <stdexcept>

namespace docket::testing {
namespace {

[[noreturn]] void bad_line(std::string_view line, std::string_view why) {
  throw std::runtime_error("exposition line '" + std::string(line) + "': " + std::string(why));
}

bool is_name_char(char c, bool first) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' ||
         (!first && c >= '0' && c <= '9');
}

std::size_t name_end(std::string_view text) {
  std::size_t i = 0;
  while (i < text.size() && is_name_char(text[i], i == 0)) {
    ++i;
  }
  return i;
}

double parse_value(std::string_view line, std::string_view text) {
  if (text == "+Inf") {
    return 1e308 * 10;
  }
  if (text == "NaN") {
    return std::numeric_limits<double>::quiet_NaN();
  }
  const std::string copy(text);
  char* end = nullptr;
  const double value = std::strtod(copy.c_str(), &end);
  if (copy.empty() || end != copy.c_str() + copy.size()) {
    bad_line(line, "its value is no number");
  }
  return value;
}

// Reads `{a="x",b="y"}` from the start of `text`; returns what follows it.
std::string_view parse_labels(std::string_view line, std::string_view text,
                              std::map<std::string, std::string>& labels) {
  std::size_t i = 1;  // past '{'
  while (i < text.size() && text[i] != '}') {
    const std::size_t end = name_end(text.substr(i));
    if (end == 0 || i + end + 1 >= text.size() || text[i + end] != '=' ||
        text[i + end + 1] != '"') {
      bad_line(line, "a label is not name=\"value\"");
    }
    const std::string name(text.substr(i, end));
    i += end + 2;
    std::string value;
    while (i < text.size() && text[i] != '"') {
      if (text[i] == '\\' && i + 1 < text.size()) {
        const char escaped = text[++i];
        value += escaped == 'n' ? '\n' : escaped;
      } else {
        value += text[i];
      }
      ++i;
    }
    if (i >= text.size()) {
      bad_line(line, "a label value is not closed");
    }
    ++i;  // past the closing quote
    if (!labels.emplace(name, value).second) {
      bad_line(line, "label " + name + " is given twice");
    }
    if (i < text.size() && text[i] == ',') {
      ++i;
    }
  }
  if (i >= text.size()) {
    bad_line(line, "the labels are not closed");
  }
  return text.substr(i + 1);
}

// Whether a sample named `sample` belongs to the family `family` of type `type`.
bool belongs(std::string_view sample, std::string_view family, std::string_view type) {
  if (sample == family) {
    return true;
  }
  if (type != "histogram" && type != "summary") {
    return false;
  }
  for (std::string_view suffix : {"_bucket", "_sum", "_count"}) {
    if (sample.size() == family.size() + suffix.size() && sample.starts_with(family) &&
        sample.ends_with(suffix)) {
      return true;
    }
  }
  return false;
}

}  // namespace

std::optional<double> ExpositionFamily::value(
    std::string_view name, const std::map<std::string, std::string>& labels) const {
  for (const ExpositionSample& sample : samples) {
    if (sample.name != name) {
      continue;
    }
    bool all = true;
    for (const auto& [key, wanted] : labels) {
      const auto found = sample.labels.find(key);
      all = all && found != sample.labels.end() && found->second == wanted;
    }
    if (all) {
      return sample.value;
    }
  }
  return std::nullopt;
}

Exposition parse_exposition(std::string_view text) {
  Exposition families;
  std::string current;
  while (!text.empty()) {
    const std::size_t newline = text.find('\n');
    const std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    if (line.empty()) {
      continue;
    }
    if (line.starts_with("# HELP ") || line.starts_with("# TYPE ")) {
      const std::string_view rest = line.substr(7);
      const std::size_t space = rest.find(' ');
      if (space == std::string_view::npos || name_end(rest) != space) {
        bad_line(line, "no metric name and text");
      }
      const std::string name(rest.substr(0, space));
      ExpositionFamily& family = families[name];
      if (line[2] == 'T') {
        if (!family.type.empty()) {
          bad_line(line, "the family is typed twice");
        }
        family.type = std::string(rest.substr(space + 1));
        current = name;
      } else {
        family.help = std::string(rest.substr(space + 1));
      }
      continue;
    }
    if (line.starts_with("#")) {
      continue;  // a comment
    }
    const std::size_t end = name_end(line);
    if (end == 0) {
      bad_line(line, "no metric name");
    }
    ExpositionSample sample{.name = std::string(line.substr(0, end))};
    if (current.empty() || !belongs(sample.name, current, families[current].type)) {
      bad_line(line, "a sample outside the family of the last # TYPE (" + current + ")");
    }
    std::string_view rest = line.substr(end);
    if (rest.starts_with("{")) {
      rest = parse_labels(line, rest, sample.labels);
    }
    if (!rest.starts_with(" ")) {
      bad_line(line, "no value after the name");
    }
    rest.remove_prefix(1);
    rest = rest.substr(0, rest.find(' '));  // a timestamp may follow
    sample.value = parse_value(line, rest);
    families[current].samples.push_back(std::move(sample));
  }
  return families;
}

namespace {

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

}  // namespace

std::string http_get(const std::string& url) {
  CURL* curl = curl_easy_init();
  if (curl == nullptr) {
    throw std::runtime_error("http_get " + url + ": curl_easy_init failed");
  }
  std::string body;
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, 60L);
  curl_easy_setopt(curl, CURLOPT_NOPROXY, "*");
  const CURLcode code = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  if (code != CURLE_OK) {
    throw std::runtime_error("http_get " + url + ": " + curl_easy_strerror(code));
  }
  if (status != 200) {
    throw std::runtime_error("http_get " + url + ": status " + std::to_string(status));
  }
  return body;
}

}  // namespace docket::testing
