#include "loupe/core/run/plugin_executor.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "../abi/document_checks.hpp"
#include "../isolation/child_process.hpp"
#include "../isolation/directory_snapshot.hpp"
#include "../plugin/plugin_library.hpp"
#include "../plugin/plugin_probe.hpp"
#include "loupe/core/util/text_escape.hpp"

namespace loupe::core {

namespace {

using Clock = std::chrono::steady_clock;
using isolation::WireTag;

// What the host keeps of what one child hands back (docs/plugin-abi.md, "Limits"). Everything
// past these is dropped and the drop recorded in loupe_run.json ("truncated").
constexpr std::size_t kMaxErrorMessages = 16;
constexpr std::size_t kMaxErrorMessageBytes = 2048;
constexpr std::size_t kMaxLogLines = 2000;
constexpr std::size_t kMaxLogBytes = std::size_t{1} << 20;
// All records of one child together; a child that sends more is killed.
constexpr std::uint64_t kMaxWireBytes =
    std::uint64_t{kMaxMetricsBytes} + kMaxFindingsBytes + (std::uint64_t{16} << 20);

// A status record: the decimal text of a loupe_status, nothing else.
bool parse_status(const std::string& text, loupe_status& out) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty()) return false;
  if (value < -1000 || value > 1000) return false;
  out = static_cast<loupe_status>(value);
  return true;
}

// Cuts `text` to at most `limit` bytes at a UTF-8 boundary, marking the cut.
std::string cut_message(const std::string& text, std::size_t limit) {
  std::string out = replace_invalid_utf8(text);
  if (out.size() <= limit) return out;
  std::size_t at = limit;
  while (at > 0 && (static_cast<unsigned char>(out[at]) & 0xC0) == 0x80) --at;
  out.resize(at);
  return out + " [cut]";
}

// Turns the records a child handed back into the result, checking each as if nothing had
// checked it in the child (a plugin can write forged records onto its pipe): one status, at most
// one document of each kind, each passing the emit-time checks again, error messages capped.
// Returns "" or why the records cannot be believed.
std::string read_back(const std::vector<isolation::WireRecord>& records, bool compat,
                      ExecutionResult& result, std::vector<std::string>& truncated,
                      bool& has_status) {
  std::size_t dropped_errors = 0;
  std::size_t cut_errors = 0;
  for (const auto& record : records) {
    switch (record.tag) {
      case WireTag::Status:
        if (has_status) return "handed back two status records";
        if (!parse_status(record.payload, result.status)) {
          return "handed back a malformed status record";
        }
        has_status = true;
        break;
      case WireTag::Metrics:
      case WireTag::Findings: {
        const bool metrics = record.tag == WireTag::Metrics;
        auto& slot = metrics ? result.output.metrics_json : result.output.findings_json;
        if (slot) {
          return std::string("handed back two ") + (metrics ? "metrics" : "findings") +
                 " documents";
        }
        const std::string why = check_emitted_document(
            record.payload, metrics ? EmittedDocument::Metrics : EmittedDocument::Findings, compat);
        if (!why.empty()) return "handed back a document the host refuses: " + why;
        slot = record.payload;
        break;
      }
      case WireTag::Error:
        if (result.output.errors.size() >= kMaxErrorMessages) {
          ++dropped_errors;
          break;
        }
        if (record.payload.size() > kMaxErrorMessageBytes) ++cut_errors;
        result.output.errors.push_back(cut_message(record.payload, kMaxErrorMessageBytes));
        break;
      default:
        break;  // a probe record in an analysis child means nothing: ignored
    }
  }
  if (dropped_errors > 0) {
    truncated.push_back(fmt::format("{} error messages dropped (at most {} are kept)",
                                    dropped_errors, kMaxErrorMessages));
  }
  if (cut_errors > 0) {
    truncated.push_back(
        fmt::format("{} error messages cut at {} bytes", cut_errors, kMaxErrorMessageBytes));
  }
  return {};
}

double elapsed_ms(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Opens the plugin and checks it still describes itself as it did when it was probed.
std::string open_plugin(const PluginInfo& info, PluginLibrary& library) {
  if (std::string why = library.open(info.path); !why.empty()) return why;
  PluginInfo again;
  if (std::string why = check_descriptor(library.descriptor(), again); !why.empty()) return why;
  // A preference may have taken categories away (info.categories is then a subset) and, with
  // displaced_contribute, made them contributions.
  auto declared = [](const std::vector<std::string>& in, const std::string& name) {
    return std::find(in.begin(), in.end(), name) != in.end();
  };
  const bool categories_ok =
      std::all_of(info.categories.begin(), info.categories.end(),
                  [&](const std::string& c) { return declared(again.categories, c); });
  const bool contributes_ok =
      std::all_of(info.contributes.begin(), info.contributes.end(), [&](const std::string& c) {
        return declared(again.contributes, c) || declared(again.categories, c);
      });
  if (again.name != info.name || !categories_ok || !contributes_ok || again.reads != info.reads ||
      again.skills != info.skills || again.fallback != info.fallback) {
    return "it describes itself differently than when it was discovered";
  }
  return {};
}

loupe_status call_analyze(const Model& model, const ExecutionRequest& request,
                          const loupe_plugin_descriptor& descriptor, RunChannel& channel) {
  loupe_analyze_request r{};
  r.struct_size = sizeof(r);
  r.host = &host_services();
  r.run = channel.handle();
  r.model = to_handle(model);
  r.category = request.category.c_str();
  r.scope = request.scope;
  r.compat = request.compat;
  r.workload = request.workload;
  return descriptor.analyze(&r);
}

// In the child: open the plugin, analyze, hand everything back.
void analyze_in_child(const Model& model, const ExecutionRequest& request, int wire_fd) {
  RunChannel channel(request.plugin->name, wire_fd, request.compat == LOUPE_COMPAT_TRACELENS);
  PluginLibrary library;
  if (const std::string why = open_plugin(*request.plugin, library); !why.empty()) {
    isolation::write_record(wire_fd, WireTag::Error, "the plugin cannot be loaded: " + why);
    return;
  }
  const loupe_status status = call_analyze(model, request, *library.descriptor(), channel);
  const RunOutput& out = channel.output();
  std::string wire;
  isolation::append_record(wire, WireTag::Status, std::to_string(status));
  if (out.metrics_json) isolation::append_record(wire, WireTag::Metrics, *out.metrics_json);
  if (out.findings_json) isolation::append_record(wire, WireTag::Findings, *out.findings_json);
  for (const auto& e : out.errors) isolation::append_record(wire, WireTag::Error, e);
  isolation::write_bytes(wire_fd, wire);
}

}  // namespace

SandboxProtections sandbox_protections() {
  const auto& p = isolation::protections();
  SandboxProtections out;
  out.namespaces = p.namespaces;
  out.landlock_abi = p.landlock_abi;
  out.seccomp = p.seccomp;
  out.writes_only_detected = isolation::writes_only_detected();
  out.summary = isolation::describe(p);
  return out;
}

Json sandbox_protections_json(const SandboxProtections& sandbox) {
  Json sj = Json::object();
  sj["namespaces"] = sandbox.namespaces;
  sj["landlock_abi"] = static_cast<std::int64_t>(sandbox.landlock_abi);
  sj["seccomp"] = sandbox.seccomp;
  sj["capabilities"] = "none";
  sj["writes_only_detected"] = sandbox.writes_only_detected;
  return sj;
}

ExecutionResult execute_in_process(const Model& model, const ExecutionRequest& request) {
  const auto start = Clock::now();
  ExecutionResult result;
  RunChannel channel(request.plugin->name, -1, request.compat == LOUPE_COMPAT_TRACELENS);
  PluginLibrary library;
  if (const std::string why = open_plugin(*request.plugin, library); !why.empty()) {
    result.failure = "cannot be loaded: " + why;
  } else {
    result.status = call_analyze(model, request, *library.descriptor(), channel);
    result.output = std::move(channel.output());
  }
  result.wall_ms = elapsed_ms(start);
  return result;
}

ExecutionResult execute_isolated(const Model& model, const ExecutionRequest& request,
                                 const IsolationLimits& limits) {
  ExecutionResult result;
  isolation::ChildOptions options;
  options.timeout = limits.timeout;
  options.max_wire_bytes = kMaxWireBytes;
  options.limits.memory_mb = limits.memory_mb;
  options.limits.cpu_seconds =
      static_cast<std::uint64_t>(std::ceil(static_cast<double>(limits.timeout.count()) / 1000.0));
  const bool compare_dirs = isolation::writes_only_detected() && !limits.protected_dirs.empty();
  isolation::DirectorySnapshot before;
  if (compare_dirs) before = isolation::DirectorySnapshot::take(limits.protected_dirs);

  const std::string& name = request.plugin->name;
  std::size_t log_lines = 0;
  std::size_t log_bytes = 0;
  std::size_t dropped_lines = 0;
  const auto report = isolation::run_in_child(
      options, [&](int wire_fd) { analyze_in_child(model, request, wire_fd); },
      [&](const isolation::WireRecord& record) {
        if (record.payload.empty()) return;
        if (log_lines >= kMaxLogLines || log_bytes + record.payload.size() > kMaxLogBytes) {
          ++dropped_lines;
          return;
        }
        ++log_lines;
        log_bytes += record.payload.size();
        const int level = std::clamp(record.payload[0] - '0', 0, 3);
        log_plugin_line(name, level, std::string_view(record.payload).substr(1));
      });
  isolation::log_captured_output(name, report.captured_output);
  result.wall_ms = report.wall_ms;
  std::vector<std::string> truncated;
  if (dropped_lines > 0) {
    truncated.push_back(fmt::format("{} log lines dropped (at most {} lines, {} KiB are shown)",
                                    dropped_lines, kMaxLogLines, kMaxLogBytes / 1024));
  }
  if (report.captured_output.size() >= isolation::kMaxCapturedOutput) {
    truncated.push_back(fmt::format("standard output and error cut at {} KiB",
                                    isolation::kMaxCapturedOutput / 1024));
  }
  auto finish = [&]() -> ExecutionResult& {
    for (const auto& t : truncated) result.truncated += (result.truncated.empty() ? "" : "; ") + t;
    return result;
  };

  if (compare_dirs) {
    const auto changes =
        isolation::DirectorySnapshot::take(limits.protected_dirs).changes_since(before);
    if (!changes.empty()) {
      std::string list;
      for (const auto& c : changes) list += (list.empty() ? "" : ", ") + c;
      result.failure = "changed files it may not write (" + list +
                       "); plugins hand their outputs to the host and write nothing themselves";
      return finish();
    }
  }
  if (std::string why = report.failure(options); !why.empty()) {
    result.failure = std::move(why);
    return finish();
  }
  bool has_status = false;
  if (std::string why = read_back(report.records, request.compat == LOUPE_COMPAT_TRACELENS, result,
                                  truncated, has_status);
      !why.empty()) {
    result.output = RunOutput{};
    result.failure = std::move(why);
    return finish();
  }
  const bool limited = limits.memory_mb > 0 && isolation::memory_limit_supported();
  const bool bad_alloc =
      std::any_of(result.output.errors.begin(), result.output.errors.end(),
                  [](const std::string& e) { return e.find("bad_alloc") != std::string::npos; });
  if (limited && (report.out_of_memory || bad_alloc)) {
    result.output.errors.push_back(
        fmt::format("the plugin ran out of memory under its limit of {} MB beyond what it inherits "
                    "(--plugin-memory raises it)",
                    limits.memory_mb));
  }
  if (!has_status && result.output.errors.empty()) {
    result.failure = "ended without handing back complete output";
  }
  return finish();
}

}  // namespace loupe::core
