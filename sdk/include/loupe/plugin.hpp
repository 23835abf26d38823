// The C++ side of a Loupe plugin: one class and one registration macro.
//
//   class MyAnalyzer {
//    public:
//     static constexpr const char* name = "my_analyzer";
//     static constexpr const char* version = "1.0.0";
//     static constexpr const char* description = "One line saying what it finds";
//     static constexpr loupe::Tier tier = loupe::Tier::Compute;
//     static constexpr std::array<const char*, 1> categories{"my_category"};
//     static constexpr std::array<const char*, 0> reads{};
//     // Optional (ABI 1.1): manifest skills it serves, and whether it is its tier's fallback.
//     static constexpr std::array<const char*, 1> skills{"my-analyzer"};
//     static constexpr bool fallback = false;
//     // Optional (ABI 1.2): categories it adds findings to beside their primary analyzer
//     // (`categories` may then be empty: std::array<const char*, 0>).
//     static constexpr std::array<const char*, 1> contributes{"gemm"};
//     // Optional (ABI 1.2): vendor categories, selected from the trace by kernel- and/or op-name
//     // pattern (docs/plugin-abi.md, "Vendor categories"); each names one of `categories`.
//     static constexpr std::array<loupe::CategorySelector, 1> selectors{
//         {{"my_kernels", "my_lib_*", nullptr}}};
//     void analyze(loupe::AnalysisContext& ctx);   // may throw
//   };
//   LOUPE_REGISTER_PLUGIN(MyAnalyzer)
//
// The macro defines the exported C entry point and noexcept trampolines: an exception escaping
// analyze() becomes an error report and LOUPE_ERROR, never an unwinding across the ABI.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <string>
#include <string_view>

#include "loupe/abi.h"
#include "loupe/findings.hpp"
#include "loupe/json_value.hpp"
#include "loupe/model.hpp"
#include "loupe/vocabulary.hpp"

namespace loupe {

// One vendor category selector (ABI 1.2, loupe_category_selector): `category` is one of the
// analyzer's categories; a NULL pattern leaves that side unconstrained; tier 0 is the plugin's.
struct CategorySelector {
  const char* category = nullptr;
  const char* kernel_pattern = nullptr;
  const char* op_pattern = nullptr;
  std::int32_t tier = 0;
};

// Everything one analyze() call can see and do.
class AnalysisContext {
 public:
  explicit AnalysisContext(const loupe_analyze_request& request)
      : request_(request), model_(request.host, request.model) {}

  std::string_view category() const { return request_.category; }
  Scope scope() const {
    return request_.scope == LOUPE_SCOPE_COMPARATIVE ? Scope::Comparative : Scope::Standalone;
  }
  bool comparative() const { return scope() == Scope::Comparative; }
  Compat compat() const {
    return request_.compat == LOUPE_COMPAT_TRACELENS ? Compat::TraceLens : Compat::None;
  }
  bool tracelens_compat() const { return compat() == Compat::TraceLens; }
  Workload workload() const {
    switch (request_.workload) {
      case LOUPE_WORKLOAD_TRAINING:
        return Workload::Training;
      case LOUPE_WORKLOAD_INFERENCE:
        return Workload::Inference;
      default:
        return Workload::Unknown;
    }
  }
  const ModelView& model() const { return model_; }

  void log(LogLevel level, const std::string& message) const {
    request_.host->log(request_.run, static_cast<int32_t>(level), message.c_str());
  }
  // Marks the category as failed with this message (the run ends as ERROR).
  void report_error(const std::string& message) {
    failed_ = true;
    request_.host->report_error(request_.run, message.c_str());
  }
  bool failed() const { return failed_; }

  // Emits the metrics document, serialized like Python's json.dump(indent=2).
  void emit_metrics(const Json& metrics) { emit_metrics_text(dump_python_json(metrics, 2)); }
  void emit_metrics_text(const std::string& json_text) {
    if (request_.host->emit_metrics(request_.run, json_text.data(), json_text.size()) != LOUPE_OK) {
      report_error("the host rejected the metrics document");
    }
  }
  void emit_findings(const findings::Document& doc) {
    const std::string text = dump_python_json(findings::to_json(doc), 2, false);
    if (request_.host->emit_findings(request_.run, text.data(), text.size()) != LOUPE_OK) {
      report_error("the host rejected the findings document");
    }
  }

 private:
  const loupe_analyze_request& request_;
  ModelView model_;
  bool failed_ = false;
};

namespace detail {

template <class Analyzer>
concept DeclaresSkills = requires {
  Analyzer::skills.data();
  Analyzer::skills.size();
};
template <class Analyzer>
concept DeclaresFallback = requires {
  bool{Analyzer::fallback};
};

template <class Analyzer>
concept DeclaresContributes = requires {
  Analyzer::contributes.data();
  Analyzer::contributes.size();
};

template <class Analyzer>
concept DeclaresSelectors = requires {
  Analyzer::selectors.data();
  Analyzer::selectors.size();
};

// The C view of an analyzer's selectors, built once: the structs and the pointer array the
// descriptor hands over.
template <class Analyzer>
const loupe_category_selector* const* selector_pointers() noexcept {
  constexpr std::size_t n = Analyzer::selectors.size();
  static const std::array<loupe_category_selector, n> structs = [] {
    std::array<loupe_category_selector, n> out{};
    for (std::size_t i = 0; i < n; ++i) {
      out[i].struct_size = sizeof(loupe_category_selector);
      out[i].category = Analyzer::selectors[i].category;
      out[i].kernel_pattern = Analyzer::selectors[i].kernel_pattern;
      out[i].op_pattern = Analyzer::selectors[i].op_pattern;
      out[i].tier = Analyzer::selectors[i].tier;
    }
    return out;
  }();
  static const std::array<const loupe_category_selector*, n> pointers = [] {
    std::array<const loupe_category_selector*, n> out{};
    for (std::size_t i = 0; i < n; ++i) out[i] = &structs[i];
    return out;
  }();
  return n == 0 ? nullptr : pointers.data();
}

template <class Analyzer>
loupe_status analyze_trampoline(const loupe_analyze_request* request) noexcept {
  if (request == nullptr || request->host == nullptr) return LOUPE_EINVAL;
  try {
    AnalysisContext ctx(*request);
    Analyzer analyzer;
    analyzer.analyze(ctx);
    return ctx.failed() ? LOUPE_ERROR : LOUPE_OK;
  } catch (const std::exception& e) {
    const std::string message = std::string("unhandled exception in analyzer: ") + e.what();
    request->host->report_error(request->run, message.c_str());
  } catch (...) {
    request->host->report_error(request->run, "unhandled non-standard exception in analyzer");
  }
  return LOUPE_ERROR;
}

template <class Analyzer>
const loupe_plugin_descriptor* entry(const loupe_host_info* host) noexcept {
  if (host == nullptr || host->abi_major != LOUPE_ABI_MAJOR) return nullptr;
  static const loupe_plugin_descriptor descriptor = [] {
    loupe_plugin_descriptor d{};
    d.struct_size = sizeof(loupe_plugin_descriptor);
    d.abi_major = LOUPE_ABI_MAJOR;
    d.abi_minor = LOUPE_ABI_MINOR;
    d.required_host_minor = 0;
    d.name = Analyzer::name;
    d.version = Analyzer::version;
    d.description = Analyzer::description;
    d.tier = static_cast<int32_t>(Analyzer::tier);
    d.categories = Analyzer::categories.size() == 0 ? nullptr : Analyzer::categories.data();
    d.category_count = Analyzer::categories.size();
    d.reads = Analyzer::reads.size() == 0 ? nullptr : Analyzer::reads.data();
    d.read_count = Analyzer::reads.size();
    d.analyze = &analyze_trampoline<Analyzer>;
    if constexpr (DeclaresSkills<Analyzer>) {
      d.skills = Analyzer::skills.size() == 0 ? nullptr : Analyzer::skills.data();
      d.skill_count = Analyzer::skills.size();
    }
    if constexpr (DeclaresFallback<Analyzer>) {
      d.flags = Analyzer::fallback ? LOUPE_PLUGIN_FALLBACK : 0u;
    }
    if constexpr (DeclaresContributes<Analyzer>) {
      d.contributes = Analyzer::contributes.size() == 0 ? nullptr : Analyzer::contributes.data();
      d.contribute_count = Analyzer::contributes.size();
    }
    if constexpr (DeclaresSelectors<Analyzer>) {
      d.selectors = selector_pointers<Analyzer>();
      d.selector_count = Analyzer::selectors.size();
    }
    return d;
  }();
  return &descriptor;
}

}  // namespace detail
}  // namespace loupe

#define LOUPE_REGISTER_PLUGIN(AnalyzerClass)                                        \
  extern "C" LOUPE_PLUGIN_EXPORT const loupe_plugin_descriptor* loupe_plugin_entry( \
      const loupe_host_info* host) noexcept {                                       \
    return ::loupe::detail::entry<AnalyzerClass>(host);                             \
  }
