// A findings document (docs/findings-schema.md, "loupe.findings/1") read back into the typed
// `findings::Document` that plugins build: the inverse of `findings::to_json`. The host reads
// every plugin's document through it once; the renderer, the finalizer and the run report then
// work on typed values. Header-only, no exceptions.
//
// What it checks is the document's shape: the members the renderer needs, their types, the
// enumerations, one detail per card, no cards outside status OK, a confidence level on fusion
// cards, impact values that are all numbers or all null. What it leaves to others: free text
// (the renderer's text rules, `text_problem`), the content of blocks (paragraph, table, ... are
// kept as Json and checked where they are rendered), and what the host requires of the header
// (category and style against the plugin that wrote it).
// Members the host only reads to rank findings (`evidence`, `saving_ms`, `claims`) are lenient,
// as they have always been: an unknown evidence word, a saving that is not three numbers or a
// claim that is not an integer is dropped, not an error.
#pragma once

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::findings {

struct ReadResult {
  Document document;
  std::string error;  // "" when the document was read; else "<where>: <problem>"
  bool ok() const { return error.empty(); }
};

inline std::optional<Style> style_from_string(std::string_view text) {
  for (const auto s : {Style::Compute, Style::System, Style::Fusion}) {
    if (text == to_string(s)) return s;
  }
  return std::nullopt;
}

inline std::optional<Status> status_from_string(std::string_view text) {
  for (const auto s : {Status::Ok, Status::NoData, Status::Error}) {
    if (text == to_string(s)) return s;
  }
  return std::nullopt;
}

namespace read_detail {

// The first problem found, with the path of the member that has it.
class Reader {
 public:
  bool failed() const { return !error_.empty(); }
  const std::string& error() const { return error_; }

  bool fail(const std::string& where, std::string_view problem) {
    if (error_.empty()) {
      error_ = where;
      error_ += ": ";
      error_ += problem;
    }
    return false;
  }
  static std::string join(const std::string& where, std::string_view key) {
    return where.empty() ? std::string(key) : where + "." + std::string(key);
  }
  static std::string index(const std::string& where, std::size_t i) {
    return where + "[" + std::to_string(i) + "]";
  }

  bool required_string(const Json& obj, std::string_view key, const std::string& where,
                       std::string& out) {
    const Json* v = obj.find(key);
    if (v == nullptr || !v->is_string()) {
      return fail(join(where, key), "required string is missing");
    }
    out = v->as_string();
    return true;
  }
  // Absent or null: nullopt.
  bool optional_string(const Json& obj, std::string_view key, const std::string& where,
                       std::optional<std::string>& out) {
    const Json* v = obj.find(key);
    if (v == nullptr || v->is_null()) return true;
    if (!v->is_string()) return fail(join(where, key), "must be a string");
    out = v->as_string();
    return true;
  }
  const Json* required_array(const Json& obj, std::string_view key, const std::string& where) {
    const Json* v = obj.find(key);
    if (v == nullptr || !v->is_array()) {
      fail(join(where, key), "required array is missing");
      return nullptr;
    }
    return v;
  }
  bool string_list(const Json& list, const std::string& where, std::vector<std::string>& out) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Json& item = list.as_array()[i];
      if (!item.is_string()) return fail(index(where, i), "must be a string");
      out.push_back(item.as_string());
    }
    return true;
  }
  // Marker values: each a number or null, and not a mix of both.
  bool marker_values(const Json& obj, std::initializer_list<std::string_view> keys,
                     const std::string& where, std::vector<Json>& out) {
    std::size_t nulls = 0;
    for (const auto key : keys) {
      const Json* v = obj.find(key);
      Json value = v == nullptr ? Json() : *v;
      if (!value.is_null() && !value.is_number()) {
        return fail(join(where, key), "impact values must be numbers or null");
      }
      nulls += value.is_null() ? 1 : 0;
      out.push_back(std::move(value));
    }
    if (nulls != 0 && nulls != out.size()) return fail(where, "impact values mix null and numbers");
    return true;
  }

  bool sections(const Json& list, const std::string& where, std::vector<Section>& out) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      const Json& s = list.as_array()[i];
      const std::string at = index(where, i);
      Section section;
      if (!required_string(s, "heading", at, section.heading)) return false;
      const Json* blocks = required_array(s, "blocks", at);
      if (blocks == nullptr) return false;
      section.blocks = blocks->as_array();
      out.push_back(std::move(section));
    }
    return true;
  }

  bool card(const Json& c, const std::string& where, Style style, Recommendation& r) {
    if (!required_string(c, "title", where, r.title)) return false;
    if (!optional_string(c, "library", where, r.library)) return false;
    if (!required_string(c, "insight", where, r.insight)) return false;
    if (!required_string(c, "action", where, r.action)) return false;
    if (const Json* impact = c.find("impact"); impact != nullptr && !impact->is_null()) {
      const std::string at = join(where, "impact");
      if (!impact->is_object()) return fail(at, "must be an object or null");
      std::vector<Json> values;
      if (!marker_values(*impact, {"low", "mid", "high"}, at, values)) return false;
      ImpactScores scores{std::move(values[0]), std::move(values[1]), std::move(values[2]), {}};
      if (!required_string(*impact, "text", at, scores.text)) return false;
      r.impact = std::move(scores);
    }
    if (!optional_string(c, "warning", where, r.warning)) return false;
    if (const Json* conf = c.find("confidence"); conf != nullptr && !conf->is_null()) {
      const std::string at = join(where, "confidence");
      Confidence confidence;
      if (!required_string(*conf, "level", at, confidence.level)) return false;
      std::optional<std::string> reason;
      if (!optional_string(*conf, "reason", at, reason)) return false;
      confidence.reason = reason.value_or("");
      r.confidence = std::move(confidence);
    }
    if (style == Style::Fusion) {
      if (!r.confidence)
        return fail(join(where, "confidence"), "fusion cards need a confidence level");
      const std::string& level = r.confidence->level;
      if (level != "High" && level != "high" && level != "Medium" && level != "medium" &&
          level != "Low" && level != "low") {
        return fail(join(where, "confidence.level"), "must be High, Medium or Low");
      }
    }
    ranking_members(c, r);
    return true;
  }

  bool detail(const Json& d, const std::string& where, Detail& out) {
    const Json* rank = d.find("rank");
    if (rank == nullptr || !rank->is_int() || rank->as_int() < 0 ||
        rank->as_int() > std::numeric_limits<int>::max()) {
      return fail(join(where, "rank"), "must be a non-negative integer");
    }
    out.rank = static_cast<int>(rank->as_int());
    if (!required_string(d, "title", where, out.title)) return false;
    if (!required_string(d, "identification", where, out.identification)) return false;
    const Json* data = required_array(d, "data", where);
    if (data == nullptr) return false;
    out.data = data->as_array();
    if (!optional_string(d, "reasoning", where, out.reasoning)) return false;
    if (!optional_string(d, "resolution", where, out.resolution)) return false;
    const Json* estimate = d.find("impact_estimate");
    if (estimate == nullptr || estimate->is_null()) return true;
    const std::string at = join(where, "impact_estimate");
    if (!estimate->is_object()) return fail(at, "must be an object or null");
    std::vector<Json> values;
    if (!marker_values(*estimate, {"low", "high"}, at, values)) return false;
    DetailEstimate e{std::move(values[0]), std::move(values[1]), {}};
    const Json* bullets = required_array(*estimate, "bullets", at);
    if (bullets == nullptr || !string_list(*bullets, join(at, "bullets"), e.bullets)) return false;
    out.estimate = std::move(e);
    return true;
  }

 private:
  // evidence, saving_ms and claims: read when well-formed, dropped otherwise.
  static void ranking_members(const Json& c, Recommendation& r) {
    if (const Json* e = c.find("evidence"); e != nullptr && e->is_string()) {
      r.evidence = evidence_from_string(e->as_string());
    }
    if (const Json* s = c.find("saving_ms"); s != nullptr && s->is_object()) {
      const Json* low = s->find("low");
      const Json* mid = s->find("mid");
      const Json* high = s->find("high");
      if (low != nullptr && mid != nullptr && high != nullptr && low->is_number() &&
          mid->is_number() && high->is_number()) {
        r.saving_ms = SavingMs{low->as_double(), mid->as_double(), high->as_double()};
      }
    }
    if (const Json* claims = c.find("claims"); claims != nullptr && claims->is_object()) {
      for (const auto& [key, list] :
           {std::pair{"kernels", &r.claims.kernels}, std::pair{"op_groups", &r.claims.op_groups}}) {
        const Json* ids = claims->find(key);
        if (ids == nullptr || !ids->is_array()) continue;
        for (const Json& id : ids->as_array()) {
          if (id.is_int()) list->push_back(id.as_int());
        }
      }
    }
  }

  std::string error_;
};

}  // namespace read_detail

// Reads a findings document into its typed form, or names the first member that breaks the
// schema. `to_json(from_json(to_json(doc)).document)` equals `to_json(doc)`.
inline ReadResult from_json(const Json& j) {
  ReadResult out;
  read_detail::Reader r;
  Document& doc = out.document;
  auto done = [&]() -> ReadResult {
    out.error = r.error();
    return out;
  };
  if (!j.is_object()) {
    r.fail("findings document", "must be a JSON object");
    return done();
  }
  std::string text;
  if (!r.required_string(j, "schema", "", text)) return done();
  if (text != kSchema) {
    r.fail("schema", std::string("expected '") + kSchema + "'");
    return done();
  }
  if (!r.required_string(j, "style", "", text)) return done();
  const auto style = style_from_string(text);
  if (!style) {
    r.fail("style", "must be compute, system or fusion");
    return done();
  }
  doc.style = *style;
  if (!r.required_string(j, "status", "", text)) return done();
  const auto status = status_from_string(text);
  if (!status) {
    r.fail("status", "must be OK, NO_DATA or ERROR");
    return done();
  }
  doc.status = *status;
  if (!r.required_string(j, "category", "", doc.category)) return done();
  // The scope is informational (the run's scope comes from the request); an absent or unknown
  // word reads as standalone.
  if (const Json* scope = j.find("scope"); scope != nullptr && scope->is_string()) {
    doc.scope = scope_from_string(scope->as_string()).value_or(Scope::Standalone);
  }
  if (!r.required_string(j, "title", "", doc.title)) return done();
  std::optional<std::string> message;
  if (!r.optional_string(j, "message", "", message)) return done();
  doc.message = message.value_or("");

  const Json* recs = r.required_array(j, "recommendations", "");
  const Json* details = recs == nullptr ? nullptr : r.required_array(j, "details", "");
  if (details == nullptr) return done();
  if (recs->size() != details->size()) {
    r.fail("recommendations", "recommendations and details must have one entry per finding (" +
                                  std::to_string(recs->size()) + " vs " +
                                  std::to_string(details->size()) + ")");
    return done();
  }
  if (doc.status != Status::Ok && recs->size() != 0) {
    r.fail("recommendations",
           std::string("status ") + to_string(doc.status) + " cannot carry recommendations");
    return done();
  }
  const Json* sections = r.required_array(j, "sections", "");
  if (sections == nullptr || !r.sections(*sections, "sections", doc.sections)) return done();
  for (std::size_t i = 0; i < recs->size(); ++i) {
    Recommendation card;
    if (!r.card(recs->as_array()[i], r.index("recommendations", i), doc.style, card)) {
      return done();
    }
    doc.recommendations.push_back(std::move(card));
  }
  for (std::size_t i = 0; i < details->size(); ++i) {
    Detail d;
    if (!r.detail(details->as_array()[i], r.index("details", i), d)) return done();
    doc.details.push_back(std::move(d));
  }
  if (const Json* trailing = j.find("trailing_sections");
      trailing != nullptr && trailing->is_array()) {
    if (!r.sections(*trailing, "trailing_sections", doc.trailing_sections)) return done();
  }
  return done();
}

}  // namespace loupe::findings
