#include "loupe/core/run/category_finalizer.hpp"

#include <cmath>

#include <fmt/format.h>
#include <rapidjson/document.h>

#include "findings_header.hpp"
#include "loupe/core/render/renderer.hpp"
#include "loupe/core/util/atomic_file.hpp"
#include "loupe/core/util/json_convert.hpp"
#include "loupe/core/util/text_escape.hpp"
#include "loupe/core/validate/validator.hpp"
#include "loupe/findings.hpp"
#include "loupe/findings_json.hpp"
#include "loupe/json_value.hpp"
#include "loupe/layout.hpp"
#include "loupe/text.hpp"

namespace loupe::core {

namespace {

// Parses a document the host already accepted at emit time (document_checks.hpp), with the
// model's rules (full precision, NaN as Python writes it).
std::shared_ptr<const rapidjson::Document> parse(const std::string& text) {
  try {
    return parse_json_document(text);
  } catch (const std::exception&) {
    return nullptr;
  }
}

// The metrics document's own status: OK, NO_DATA or ERROR (with its "error" text).
findings::Status metrics_status(const rapidjson::Value& metrics, std::string& error_text) {
  if (!metrics.IsObject()) return findings::Status::Ok;
  const auto it = metrics.FindMember("status");
  if (it == metrics.MemberEnd() || !it->value.IsString()) return findings::Status::Ok;
  const findings::Status status =
      findings::status_from_string(it->value.GetString()).value_or(findings::Status::Ok);
  if (status == findings::Status::Error) {
    const auto err = metrics.FindMember("error");
    error_text = err != metrics.MemberEnd() && err->value.IsString()
                     ? err->value.GetString()
                     : "the analyzer reported ERROR";
  }
  return status;
}

// A metrics document that names another category is refused, like a findings document.
std::string metrics_category_problem(const rapidjson::Value& metrics, const std::string& category) {
  if (!metrics.IsObject()) return "the metrics document is not a JSON object";
  const auto it = metrics.FindMember("category");
  if (it == metrics.MemberEnd() || !it->value.IsString()) return {};
  if (std::string_view(it->value.GetString()) == category) return {};
  return "the metrics document is for category '" + std::string(it->value.GetString()) +
         "', not '" + category + "'";
}

std::string error_metrics(const std::string& category, const std::string& message) {
  Json j = Json::object();
  j["category"] = category;
  j["status"] = "ERROR";
  j["error"] = message;
  return dump_python_json(j, 2);
}

// The host's own ERROR findings: a title and the message, nothing a validator could refuse.
std::string host_error_findings(findings::Style style, const std::string& category,
                                const std::string& plugin_name, Scope scope,
                                const std::string& message) {
  const findings::Document doc =
      findings::error_document(style, category, scope, category + " findings",
                               "analyzer '" + plugin_name + "' failed: " + message);
  return render_findings_json(dump_python_json(findings::to_json(doc), -1, false));
}

// Checked against the metrics document in memory, as it is written beside the findings: nothing
// is read back from disk (docs/architecture.md, step 5).
ValidationResult validate_rendered(const std::string& markdown, const std::string& metrics_json,
                                   const FinalizeOptions& options, findings::Style style,
                                   const std::string& findings_rel, ValidationMode mode) {
  return validate_findings_in_memory(markdown, options.output_dir / findings_rel, metrics_json,
                                     findings::to_string(style), options.scope, mode);
}

// A card's impact is a share of the end-to-end time, in percent: each of low, mid and high that
// is a number must be finite and within [0, 100] (docs/plugin-abi.md, "Limits"). Not checked
// in --compat tracelens runs, whose documents repeat TraceLens's numbers as they are.
std::string impact_problem(const findings::Document& doc) {
  std::size_t index = 0;
  for (const auto& card : doc.recommendations) {
    ++index;
    if (!card.impact) continue;
    for (const auto& [key, value] :
         {std::pair{"low", &card.impact->low}, std::pair{"mid", &card.impact->mid},
          std::pair{"high", &card.impact->high}}) {
      if (!value->is_number()) continue;
      const double v = value->as_double();
      if (!std::isfinite(v) || v < 0.0 || v > 100.0) {
        return "card " + std::to_string(index) + " claims an impact (" + key + ") of " +
               (std::isfinite(v) ? fmt::format("{}", v) : std::string("a non-finite number")) +
               " % of the end-to-end time; an impact is a share between 0 and 100 %";
      }
    }
  }
  return {};
}

// The plugin's findings document, read once into its typed form (with the model's JSON rules:
// full precision, NaN as Python writes it).
findings::ReadResult read_plugin_findings(const std::string& text) {
  findings::ReadResult read;
  const auto parsed = parse(text);
  if (!parsed) {
    read.error = "the findings document does not parse";
    return read;
  }
  return findings::from_json(to_owned_json(*parsed));
}

std::string metrics_relative_path(const std::string& stem) { return layout::metrics_path(stem); }

// Why the run itself failed, before any document is looked at; "" when it did not.
std::string run_failure(const PluginInfo& plugin, const std::string& category,
                        const ExecutionResult& result) {
  if (!result.failure.empty()) {
    return "plugin '" + plugin.name + "' " + result.failure + " while analyzing " + category;
  }
  if (!result.output.errors.empty()) return text::join(result.output.errors, "; ");
  if (result.status != LOUPE_OK) {
    return "analyze returned status " + std::to_string(result.status);
  }
  if (!result.output.metrics_json)
    return "plugin '" + plugin.name + "' emitted no metrics document";
  if (!result.output.findings_json) {
    return "plugin '" + plugin.name + "' emitted no findings document";
  }
  return {};
}

}  // namespace

std::string category_output_stem(const PluginInfo& plugin, const std::string& category,
                                 CategoryRole role) {
  return role == CategoryRole::Contributing ? category + "." + plugin.name : category;
}

CategoryOutcome finalize_category(Model& model, const PluginInfo& plugin,
                                  const std::string& category, const ExecutionResult& result,
                                  const FinalizeOptions& options, CategoryRole role) {
  CategoryOutcome outcome;
  outcome.category = category;
  outcome.role = role;
  const std::string stem = category_output_stem(plugin, category, role);
  findings::Style style = default_style(plugin.tier);
  std::string failure = run_failure(plugin, category, result);

  // The plugin's documents, parsed once.
  std::shared_ptr<const rapidjson::Document> metrics;
  if (result.output.metrics_json) metrics = parse(*result.output.metrics_json);
  findings::ReadResult read;
  if (result.output.findings_json) {
    read = read_plugin_findings(*result.output.findings_json);
  } else {
    read.error = "no findings document";
  }
  const std::string header_problem =
      read.ok() ? findings_header_problem(read.document, category, plugin.tier) : read.error;
  if (failure.empty()) {
    if (!metrics || !result.output.findings_json) {
      failure = "plugin '" + plugin.name + "' emitted a document that does not parse";
    } else if (!read.ok()) {
      failure = "plugin '" + plugin.name + "': findings could not be read: " + read.error;
    } else if (!header_problem.empty()) {
      failure = "plugin '" + plugin.name + "': " + header_problem;
    } else if (std::string bad = metrics_category_problem(*metrics, category); !bad.empty()) {
      failure = "plugin '" + plugin.name + "': " + bad;
    } else if (std::string claim = options.compat == Compat::TraceLens
                                       ? std::string()
                                       : impact_problem(read.document);
               !claim.empty()) {
      failure = "plugin '" + plugin.name + "': " + claim;
    }
  }
  const findings::Document& doc = read.document;
  if (header_problem.empty()) style = doc.style;
  std::string metrics_error;
  const findings::Status status =
      failure.empty() ? metrics_status(*metrics, metrics_error) : findings::Status::Error;
  if (failure.empty() && status == findings::Status::Error) failure = metrics_error;

  const std::string metrics_rel = metrics_relative_path(stem);
  const std::string findings_rel = findings_relative_path(findings::to_string(style), stem);
  if (status != findings::Status::Error) {
    // Render, validate against the metrics as emitted, then publish both.
    try {
      std::string markdown = render_findings(doc);
      const std::string& metrics_json = *result.output.metrics_json;
      auto check = validate_rendered(markdown, metrics_json, options, style, findings_rel,
                                     ValidationMode::Default);
      if (check.passed && options.compat == Compat::TraceLens && status == findings::Status::Ok &&
          markdown.find("kind=p_item") != std::string::npos) {
        check = validate_rendered(markdown, metrics_json, options, style, findings_rel,
                                  ValidationMode::TraceLens);
      }
      if (check.passed) {
        write_file_atomically(options.output_dir / metrics_rel, metrics_json);
        write_file_atomically(options.output_dir / findings_rel, markdown);
        model.set_document(metrics_rel, metrics);
        // One word for the category: NO_DATA when either document says so (a metrics file that
        // says OK beside findings that say NO_DATA is reported as NO_DATA, with the reason).
        const bool no_data =
            status == findings::Status::NoData || doc.status == findings::Status::NoData;
        outcome.status = no_data ? findings::Status::NoData : findings::Status::Ok;
        outcome.metrics_path = metrics_rel;
        outcome.findings_path = findings_rel;
        outcome.findings_count = doc.recommendations.size();
        outcome.findings_document = std::make_shared<const findings::Document>(doc);
        outcome.findings_markdown = std::move(markdown);
        if (no_data) outcome.message = doc.message;
        return outcome;
      }
      failure = "rendered findings failed validation: " + text::join(check.errors, "; ");
    } catch (const std::exception& e) {
      failure = std::string("findings could not be rendered: ") + e.what();
    }
  }

  // ERROR: both files say so. The plugin's own ERROR documents are kept when it wrote valid
  // ones (TraceLens's error layout in compat mode); otherwise the host writes minimal ones.
  failure = replace_invalid_utf8(failure);
  outcome.status = findings::Status::Error;
  outcome.message = failure;
  std::string ignored;
  const bool own_error_metrics = metrics && result.failure.empty() &&
                                 metrics_category_problem(*metrics, category).empty() &&
                                 metrics_status(*metrics, ignored) == findings::Status::Error;
  const std::string metrics_text =
      own_error_metrics ? *result.output.metrics_json : error_metrics(category, failure);
  std::string markdown;
  if (own_error_metrics && header_problem.empty() && doc.status == findings::Status::Error) {
    try {
      markdown = render_findings(doc);
    } catch (const std::exception&) {
      markdown.clear();
    }
  }
  try {
    if (markdown.empty()) {
      markdown = host_error_findings(style, category, plugin.name, options.scope, failure);
    }
    write_file_atomically(options.output_dir / metrics_rel, metrics_text);
    write_file_atomically(options.output_dir / findings_rel, markdown);
    model.set_document(metrics_rel, parse_json_document(metrics_text));
    outcome.metrics_path = metrics_rel;
    outcome.findings_path = findings_rel;
  } catch (const std::exception& e) {
    outcome.message += std::string("; and the ERROR outputs could not be written: ") + e.what();
  }
  return outcome;
}

}  // namespace loupe::core
