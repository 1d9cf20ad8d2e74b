#include "providers/firestore/firestore_limits.h"

#include <string>

#include "docket/core/error.h"
#include "docket/core/utf8.h"

namespace docket::firestore::detail {
namespace {

std::string document_named(std::string_view collection, std::string_view id) {
  return "Firestore document '" + std::string(id) + "' of collection '" + std::string(collection) +
         "'";
}

std::size_t value_size(const nlohmann::json& value, std::string_view field);

std::size_t fields_size(const nlohmann::json& fields, std::string_view field) {
  std::size_t size = 0;
  if (!fields.is_object()) {
    return 0;
  }
  for (const auto& [name, value] : fields.items()) {
    size += name.size() + 1 + value_size(value, field.empty() ? name : field);
  }
  return size;
}

std::size_t value_size(const nlohmann::json& value, std::string_view field) {
  if (value.is_object() && value.size() == 1) {
    // The one member, read through an iterator that outlives its uses.
    const auto member = value.begin();
    const std::string& type = member.key();
    const nlohmann::json& inner = member.value();
    if (type == "stringValue" && inner.is_string()) {
      return inner.get_ref<const std::string&>().size() + 1;
    }
    if (type == "bytesValue" && inner.is_string()) {
      const std::string& text = inner.get_ref<const std::string&>();
      std::size_t padding = 0;
      for (auto c = text.rbegin(); c != text.rend() && *c == '='; ++c) {
        ++padding;
      }
      return text.size() / 4 * 3 - padding;
    }
    if (type == "integerValue" || type == "doubleValue" || type == "timestampValue") {
      return 8;
    }
    if (type == "booleanValue" || type == "nullValue") {
      return 1;
    }
    if (type == "referenceValue" && inner.is_string()) {
      return inner.get_ref<const std::string&>().size() + 1;
    }
    if (type == "mapValue" && inner.is_object()) {
      return fields_size(inner.value("fields", nlohmann::json::object()), field);
    }
    if (type == "arrayValue" && inner.is_object()) {
      std::size_t size = 0;
      for (const nlohmann::json& element : inner.value("values", nlohmann::json::array())) {
        size += value_size(element, field);
      }
      return size;
    }
  }
  throw InvalidInputError("field '" + std::string(field) + "' holds " +
                          value.dump().substr(0, 200) + ", which is no Firestore value");
}

}  // namespace

void check_document_id(std::string_view collection, std::string_view id) {
  std::string problem;
  if (id.empty()) {
    problem = "is empty";
  } else if (id.size() > kMaxDocumentIdBytes) {
    problem = "is " + std::to_string(id.size()) + " bytes long, over Firestore's limit of " +
              std::to_string(kMaxDocumentIdBytes) + " bytes: shorten it (docket never truncates)";
  } else if (!is_valid_utf8(id)) {
    problem = "is not valid UTF-8";
  } else if (id.find('/') != std::string_view::npos) {
    problem = "holds '/', which Firestore reads as a path separator";
  } else if (id == "." || id == "..") {
    problem = "is '.' or '..', which Firestore refuses";
  } else if (id.size() >= 4 && id.starts_with("__") && id.ends_with("__")) {
    problem = "matches __.*__, which Firestore reserves";
  } else {
    return;
  }
  throw InvalidInputError(document_named(collection, id.substr(0, 200)) + ": its id " + problem +
                          "; nothing was written");
}

std::size_t document_size(std::string_view collection, std::string_view id,
                          const nlohmann::json& fields) {
  // The name counts each segment below the database ("collection", "id") + 1, plus 16.
  const std::size_t name = collection.size() + 1 + id.size() + 1 + 16;
  return name + fields_size(fields, {}) + 32;
}

void check_document(std::string_view collection, std::string_view id,
                    const nlohmann::json& fields) {
  check_document_id(collection, id);
  const std::size_t size = document_size(collection, id, fields);
  if (size > kMaxDocumentBytes) {
    throw InvalidInputError(document_named(collection, id) + " would be " + std::to_string(size) +
                            " bytes, over Firestore's limit of " +
                            std::to_string(kMaxDocumentBytes) +
                            " bytes per document: make its payload smaller; nothing was written");
  }
}

}  // namespace docket::firestore::detail
