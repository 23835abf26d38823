#include "loupe/core/plugin_executor.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

#include "../isolation/child_process.hpp"
#include "../isolation/directory_snapshot.hpp"
#include "../plugin/plugin_library.hpp"
#include "../plugin/plugin_probe.hpp"

namespace loupe::core {

namespace {

using Clock = std::chrono::steady_clock;
using isolation::WireTag;

double elapsed_ms(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Opens the plugin and checks it still describes itself as it did when it was probed.
std::string open_plugin(const PluginInfo& info, PluginLibrary& library) {
  if (std::string why = library.open(info.path); !why.empty()) return why;
  PluginInfo again;
  if (std::string why = check_descriptor(library.descriptor(), again); !why.empty()) return why;
  if (again.name != info.name || again.categories != info.categories || again.reads != info.reads ||
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
  options.limits.memory_mb = limits.memory_mb;
  options.limits.cpu_seconds =
      static_cast<std::uint64_t>(std::ceil(static_cast<double>(limits.timeout.count()) / 1000.0));
  const bool compare_dirs = isolation::landlock_abi() < 1 && !limits.protected_dirs.empty();
  isolation::DirectorySnapshot before;
  if (compare_dirs) before = isolation::DirectorySnapshot::take(limits.protected_dirs);

  const std::string& name = request.plugin->name;
  const auto report = isolation::run_in_child(
      options, [&](int wire_fd) { analyze_in_child(model, request, wire_fd); },
      [&](const isolation::WireRecord& record) {
        if (record.payload.empty()) return;
        log_plugin_line(name, record.payload[0] - '0', std::string_view(record.payload).substr(1));
      });
  isolation::log_captured_output(name, report.captured_output);
  result.wall_ms = report.wall_ms;

  if (compare_dirs) {
    const auto changes =
        isolation::DirectorySnapshot::take(limits.protected_dirs).changes_since(before);
    if (!changes.empty()) {
      std::string list;
      for (const auto& c : changes) list += (list.empty() ? "" : ", ") + c;
      result.failure = "changed files it may not write (" + list +
                       "); plugins hand their outputs to the host and write nothing themselves";
      return result;
    }
  }
  if (std::string why = report.failure(options); !why.empty()) {
    result.failure = std::move(why);
    return result;
  }
  bool has_status = false;
  for (const auto& record : report.records) {
    switch (record.tag) {
      case WireTag::Status:
        has_status = true;
        result.status = static_cast<loupe_status>(std::atoi(record.payload.c_str()));
        break;
      case WireTag::Metrics:
        result.output.metrics_json = record.payload;
        break;
      case WireTag::Findings:
        result.output.findings_json = record.payload;
        break;
      case WireTag::Error:
        result.output.errors.push_back(record.payload);
        break;
      default:
        break;
    }
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
  return result;
}

}  // namespace loupe::core
