#include "loupe/core/category_finalizer.hpp"

#include <rapidjson/document.h>

#include "loupe/core/atomic_file.hpp"
#include "loupe/core/renderer.hpp"
#include "loupe/core/validator.hpp"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"

namespace loupe::core {

namespace {

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : sep) + item;
  return out;
}

std::string default_style(const LoadedPlugin& plugin) {
  return plugin.tier == LOUPE_TIER_COMPUTE ? "compute" : "system";
}

// The style the plugin asked for in its findings document, else the tier's.
std::string style_of(const LoadedPlugin& plugin, const std::optional<std::string>& findings) {
  if (findings) {
    rapidjson::Document doc;
    doc.Parse<rapidjson::kParseNanAndInfFlag>(findings->data(), findings->size());
    if (!doc.HasParseError() && doc.IsObject()) {
      const auto it = doc.FindMember("style");
      if (it != doc.MemberEnd() && it->value.IsString()) {
        std::string style = it->value.GetString();
        if (style == "compute" || style == "system" || style == "fusion") return style;
      }
    }
  }
  return default_style(plugin);
}

// The metrics document's own status: OK, NO_DATA or ERROR (with its "error" text).
std::string metrics_status(const rapidjson::Document& metrics, std::string& error_text) {
  if (!metrics.IsObject()) return "OK";
  const auto it = metrics.FindMember("status");
  if (it == metrics.MemberEnd() || !it->value.IsString()) return "OK";
  const std::string status = it->value.GetString();
  if (status == "ERROR") {
    const auto err = metrics.FindMember("error");
    error_text = err != metrics.MemberEnd() && err->value.IsString()
                     ? err->value.GetString()
                     : "the analyzer reported ERROR";
    return "ERROR";
  }
  return status == "NO_DATA" ? "NO_DATA" : "OK";
}

std::string error_metrics(const std::string& category, const std::string& message) {
  Json j = Json::object();
  j["category"] = category;
  j["status"] = "ERROR";
  j["error"] = message;
  return dump_python_json(j, 2);
}

std::string error_findings_markdown(const std::string& style, const std::string& category,
                                    const std::string& plugin_name, const std::string& scope,
                                    const std::string& message) {
  findings::Document doc;
  doc.style = style == "compute"  ? findings::Style::Compute
              : style == "fusion" ? findings::Style::Fusion
                                  : findings::Style::System;
  doc.category = category;
  doc.scope = scope;
  doc.status = findings::Status::Error;
  doc.title = category + " findings";
  // A single line keeps the message renderable whatever the plugin said.
  std::string one_line = message;
  for (auto& c : one_line) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  for (const char* bad : {"<!--", "-->"}) {
    for (size_t pos = one_line.find(bad); pos != std::string::npos; pos = one_line.find(bad)) {
      one_line.replace(pos, std::string_view(bad).size(), "");
    }
  }
  doc.message = "analyzer '" + plugin_name + "' failed: " + one_line;
  const std::string text = dump_python_json(findings::to_json(doc), -1, false);
  return render_findings_json(text);
}

// The plugin's own ERROR findings, rendered, when it emitted a valid one; else "".
std::string plugin_error_findings(const ExecutionResult& result) {
  if (!result.failure.empty() || !result.output.findings_json) return {};
  try {
    const auto doc = parse_json_document(*result.output.findings_json);
    const auto it = doc->FindMember("status");
    if (it == doc->MemberEnd() || !it->value.IsString() ||
        std::string_view(it->value.GetString()) != "ERROR") {
      return {};
    }
    return render_findings(*doc);
  } catch (const std::exception&) {
    return {};
  }
}

struct Written {
  std::string metrics_rel;
  std::string findings_rel;
};

Written write_outputs(Model& model, const FinalizeOptions& options, const std::string& category,
                      const std::string& style, const std::string& metrics_text,
                      const std::string& findings_markdown) {
  Written w;
  w.metrics_rel = "category_data/" + category + "_metrics.json";
  w.findings_rel = findings_relative_path(style, category);
  write_file_atomically(options.output_dir / w.metrics_rel, metrics_text);
  write_file_atomically(options.output_dir / w.findings_rel, findings_markdown);
  model.set_document(w.metrics_rel, parse_json_document(metrics_text));
  return w;
}

ValidationResult validate_rendered(const std::string& markdown, const FinalizeOptions& options,
                                   const std::string& style, const std::string& findings_rel,
                                   ValidationMode mode) {
  const FindingsScope scope =
      options.scope == "comparative" ? FindingsScope::Comparative : FindingsScope::Standalone;
  return validate_findings_text(markdown, options.output_dir / findings_rel, style, scope, mode);
}

}  // namespace

CategoryOutcome finalize_category(Model& model, const LoadedPlugin& plugin,
                                  const std::string& category, const ExecutionResult& result,
                                  const FinalizeOptions& options) {
  CategoryOutcome outcome;
  outcome.category = category;
  const std::string style = style_of(plugin, result.output.findings_json);

  std::string failure;
  if (!result.failure.empty()) {
    failure = "plugin '" + plugin.name + "' " + result.failure + " while analyzing " + category;
  } else if (!result.output.errors.empty()) {
    failure = join(result.output.errors, "; ");
  } else if (result.status != LOUPE_OK) {
    failure = "analyze returned status " + std::to_string(result.status);
  } else if (!result.output.metrics_json) {
    failure = "plugin '" + plugin.name + "' emitted no metrics document";
  } else if (!result.output.findings_json) {
    failure = "plugin '" + plugin.name + "' emitted no findings document";
  }

  std::string metrics_text;
  std::string status = "ERROR";
  if (failure.empty()) {
    metrics_text = *result.output.metrics_json;
    const auto metrics = parse_json_document(metrics_text);
    std::string error_text;
    status = metrics_status(*metrics, error_text);
    if (status == "ERROR") failure = error_text;
  } else if (result.output.metrics_json) {
    // Keep the plugin's own ERROR layout when it wrote one (e.g. TraceLens's error metrics).
    const auto metrics = parse_json_document(*result.output.metrics_json);
    std::string ignored;
    if (metrics_status(*metrics, ignored) == "ERROR") metrics_text = *result.output.metrics_json;
  }

  if (status != "ERROR") {
    // Render, validate, then write. Any problem is a loud ERROR, never a silent bad file.
    try {
      const std::string markdown = render_findings_json(*result.output.findings_json);
      const std::string findings_rel = findings_relative_path(style, category);
      write_file_atomically(options.output_dir / ("category_data/" + category + "_metrics.json"),
                            metrics_text);
      auto check =
          validate_rendered(markdown, options, style, findings_rel, ValidationMode::Default);
      if (check.passed && options.compat_tracelens && status == "OK" &&
          markdown.find("kind=p_item") != std::string::npos) {
        check =
            validate_rendered(markdown, options, style, findings_rel, ValidationMode::TraceLens);
      }
      if (!check.passed) {
        failure = "rendered findings failed validation: " + join(check.errors, "; ");
      } else {
        const Written w = write_outputs(model, options, category, style, metrics_text, markdown);
        outcome.status = status;
        outcome.metrics_path = w.metrics_rel;
        outcome.findings_path = w.findings_rel;
        if (status == "NO_DATA") {
          const auto doc = parse_json_document(*result.output.findings_json);
          const auto it = doc->FindMember("message");
          if (it != doc->MemberEnd() && it->value.IsString())
            outcome.message = it->value.GetString();
        }
        return outcome;
      }
    } catch (const std::exception& e) {
      failure = std::string("findings could not be rendered: ") + e.what();
    }
  }

  // ERROR path: the plugin's own error metrics or a minimal one, and an ERROR findings file.
  outcome.status = "ERROR";
  outcome.message = failure;
  if (metrics_text.empty() || status != "ERROR") metrics_text = error_metrics(category, failure);
  try {
    std::string markdown = plugin_error_findings(result);
    if (markdown.empty()) {
      markdown = error_findings_markdown(style, category, plugin.name, options.scope, failure);
    }
    const Written w = write_outputs(model, options, category, style, metrics_text, markdown);
    outcome.metrics_path = w.metrics_rel;
    outcome.findings_path = w.findings_rel;
  } catch (const std::exception& e) {
    outcome.message += std::string("; and the ERROR outputs could not be written: ") + e.what();
  }
  return outcome;
}

}  // namespace loupe::core
