#include "document_checks.hpp"

#include <cstring>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "loupe/core/util/json_guards.hpp"

namespace loupe::core {

std::string check_emitted_document(std::string_view text, EmittedDocument kind,
                                   bool allow_non_finite) {
  const std::string what = std::string(kind == EmittedDocument::Metrics ? "the metrics document"
                                                                        : "the findings document") +
                           ":";
  const std::size_t limit = kind == EmittedDocument::Metrics ? kMaxMetricsBytes : kMaxFindingsBytes;
  if (text.size() > limit) {
    return what + " " + std::to_string(text.size()) + " bytes, over the limit of " +
           std::to_string(limit);
  }
  if (const void* nul = std::memchr(text.data(), '\0', text.size()); nul != nullptr) {
    return what + " contains a NUL byte at offset " +
           std::to_string(static_cast<const char*>(nul) - text.data());
  }
  if (json_nesting_exceeds(text)) {
    return what + " nests deeper than " + std::to_string(kMaxJsonDepth) + " levels";
  }
  rapidjson::Document doc;
  if (allow_non_finite) {
    doc.Parse<rapidjson::kParseValidateEncodingFlag | rapidjson::kParseNanAndInfFlag>(text.data(),
                                                                                      text.size());
  } else {
    doc.Parse<rapidjson::kParseValidateEncodingFlag>(text.data(), text.size());
  }
  if (doc.HasParseError()) {
    return what + " not one valid JSON value" + (allow_non_finite ? "" : " with finite numbers") +
           " (" + rapidjson::GetParseError_En(doc.GetParseError()) + " at offset " +
           std::to_string(doc.GetErrorOffset()) + ")";
  }
  if (!doc.IsObject()) return what + " not a JSON object";
  return {};
}

}  // namespace loupe::core
