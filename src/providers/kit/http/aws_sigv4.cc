#include "providers/kit/http/aws_sigv4.h"

#include <algorithm>
#include <cctype>
#include <ctime>

#include "docket/core/error.h"
#include "docket/keys/term_codec.h"

namespace docket::kit::http {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// An HTTP header name is a token (RFC 9110): visible ASCII without separators.
bool is_token(std::string_view name) {
  constexpr std::string_view kSeparators = "()<>@,;:\\\"/[]?={} \t";
  return !name.empty() && std::all_of(name.begin(), name.end(), [&](char c) {
    return c > 0x20 && c < 0x7f && kSeparators.find(c) == std::string_view::npos;
  });
}

// Leading and trailing spaces removed, inner runs of spaces collapsed to one.
std::string canonical_value(std::string_view value) {
  std::string out;
  bool pending_space = false;
  for (const char c : value) {
    if (c == ' ' || c == '\t') {
      pending_space = !out.empty();
      continue;
    }
    if (pending_space) {
      out.push_back(' ');
      pending_space = false;
    }
    out.push_back(c);
  }
  return out;
}

// Each segment percent-encoded, the '/' between them kept.
std::string canonical_uri(std::string_view path) {
  if (path.empty()) {
    return "/";
  }
  std::string out;
  std::size_t start = 0;
  while (true) {
    const std::size_t slash = path.find('/', start);
    keys::append_percent_encoded(path.substr(start, slash - start), out);
    if (slash == std::string_view::npos) {
      return out;
    }
    out.push_back('/');
    start = slash + 1;
  }
}

std::string canonical_query(const std::vector<std::pair<std::string, std::string>>& query) {
  std::vector<std::pair<std::string, std::string>> encoded;
  encoded.reserve(query.size());
  for (const auto& [name, value] : query) {
    encoded.emplace_back(keys::percent_encode(name), keys::percent_encode(value));
  }
  std::sort(encoded.begin(), encoded.end());
  std::string out;
  for (const auto& [name, value] : encoded) {
    if (!out.empty()) {
      out.push_back('&');
    }
    out += name;
    out.push_back('=');
    out += value;
  }
  return out;
}

struct CanonicalHeaders {
  std::string lines;         // "name:value\n" each
  std::string signed_names;  // "name;name"
};

CanonicalHeaders canonical_headers(std::vector<HttpHeader> headers) {
  for (HttpHeader& header : headers) {
    header.name = lower(header.name);
    header.value = canonical_value(header.value);
  }
  // Stable: repeated headers keep their order, to be joined with ','.
  std::stable_sort(headers.begin(), headers.end(),
                   [](const HttpHeader& a, const HttpHeader& b) { return a.name < b.name; });
  CanonicalHeaders out;
  for (std::size_t i = 0; i < headers.size(); ++i) {
    if (i > 0 && headers[i].name == headers[i - 1].name) {
      out.lines.back() = ',';  // the previous line's '\n'
    } else {
      if (!out.signed_names.empty()) {
        out.signed_names.push_back(';');
      }
      out.signed_names += headers[i].name;
      out.lines += headers[i].name;
      out.lines.push_back(':');
    }
    out.lines += headers[i].value;
    out.lines.push_back('\n');
  }
  return out;
}

void check_headers(const std::vector<HttpHeader>& headers) {
  bool has_host = false;
  for (const HttpHeader& header : headers) {
    const std::string name = lower(header.name);
    if (!is_token(header.name)) {
      throw InvalidInputError("SigV4: header name '" + header.name +
                              "' is not an HTTP token; use letters, digits and '-'");
    }
    if (header.value.find_first_of("\r\n") != std::string::npos) {
      throw InvalidInputError("SigV4: the value of header " + header.name +
                              " holds a line break; a header value must be one line");
    }
    if (name == "x-amz-date" || name == "x-amz-security-token" || name == "authorization") {
      throw InvalidInputError("SigV4: the request already carries " + header.name +
                              ", which the signer sets; leave it out");
    }
    has_host = has_host || name == "host";
  }
  if (!has_host) {
    throw InvalidInputError(
        "SigV4: the request has no Host header; AWS requires it to be signed, so add "
        "the host (and port, if not the scheme's default) the request is sent to");
  }
}

}  // namespace

std::string sigv4_amz_date(std::chrono::system_clock::time_point now) {
  const std::time_t seconds = std::chrono::system_clock::to_time_t(now);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[17];
  std::strftime(text, sizeof text, "%Y%m%dT%H%M%SZ", &utc);
  return text;
}

Sha256Digest sigv4_signing_key(std::string_view secret_access_key, std::string_view date,
                               const SigV4Scope& scope) {
  const Sha256Digest date_key = hmac_sha256("AWS4" + std::string(secret_access_key), date);
  const Sha256Digest region_key = hmac_sha256(date_key, scope.region);
  const Sha256Digest service_key = hmac_sha256(region_key, scope.service);
  return hmac_sha256(service_key, "aws4_request");
}

SigV4Signature sign_sigv4(const SigV4Request& request, const AwsCredentials& credentials,
                          const SigV4Scope& scope, std::chrono::system_clock::time_point now) {
  check_headers(request.headers);
  SigV4Signature signature;
  const std::string amz_date = sigv4_amz_date(now);
  const std::string_view date = std::string_view(amz_date).substr(0, 8);
  signature.headers.push_back({"X-Amz-Date", amz_date});
  if (!credentials.session_token.empty()) {
    signature.headers.push_back({"X-Amz-Security-Token", credentials.session_token});
  }

  std::vector<HttpHeader> signed_headers = request.headers;
  signed_headers.insert(signed_headers.end(), signature.headers.begin(), signature.headers.end());
  const CanonicalHeaders headers = canonical_headers(std::move(signed_headers));

  signature.canonical_request = std::string(request.method) + '\n' + canonical_uri(request.path) +
                                '\n' + canonical_query(request.query) + '\n' + headers.lines +
                                '\n' + headers.signed_names + '\n' + sha256_hex(request.payload);
  const std::string credential_scope =
      std::string(date) + '/' + scope.region + '/' + scope.service + "/aws4_request";
  signature.string_to_sign = std::string(kAlgorithm) + '\n' + amz_date + '\n' + credential_scope +
                             '\n' + sha256_hex(signature.canonical_request);
  signature.signature = hex_lower(hmac_sha256(
      sigv4_signing_key(credentials.secret_access_key, date, scope), signature.string_to_sign));
  signature.headers.push_back(
      {"Authorization", std::string(kAlgorithm) + " Credential=" + credentials.access_key_id + '/' +
                            credential_scope + ", SignedHeaders=" + headers.signed_names +
                            ", Signature=" + signature.signature});
  return signature;
}

}  // namespace docket::kit::http
