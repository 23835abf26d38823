// The host side of the C ABI: the services table handed to plugins, and the conversions between
// the opaque ABI handles and the host's own types.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/abi.h"
#include "loupe/core/model/model.hpp"

namespace loupe::core {

// Everything one analyze() call handed back to the host.
struct RunOutput {
  std::optional<std::string> metrics_json;
  std::optional<std::string> findings_json;
  std::vector<std::string> errors;
};

// The output channel behind a loupe_run handle. In a plugin child, log lines stream to the host
// as wire records on log_fd as they are written; in process (log_fd < 0) they go to the logger.
class RunChannel {
 public:
  explicit RunChannel(std::string plugin_name, int log_fd = -1, bool compat_tracelens = false)
      : plugin_name_(std::move(plugin_name)),
        log_fd_(log_fd),
        compat_tracelens_(compat_tracelens) {}
  const std::string& plugin_name() const { return plugin_name_; }
  int log_fd() const { return log_fd_; }
  // TraceLens's documents may hold NaN/Infinity; Loupe's own may not (document_checks.hpp).
  bool compat_tracelens() const { return compat_tracelens_; }
  RunOutput& output() { return output_; }
  loupe_run* handle() { return reinterpret_cast<loupe_run*>(this); }
  static RunChannel* from(loupe_run* run) { return reinterpret_cast<RunChannel*>(run); }

 private:
  std::string plugin_name_;
  int log_fd_ = -1;
  bool compat_tracelens_ = false;
  RunOutput output_;
};

inline const loupe_model* to_handle(const Model& model) {
  return reinterpret_cast<const loupe_model*>(&model);
}

// The services table of this host (static storage, ABI version LOUPE_ABI_MAJOR.MINOR).
const loupe_host_services& host_services();

// Writes one log line of a plugin to the host's logger, escaped for the terminal.
void log_plugin_line(const std::string& plugin_name, int32_t level, std::string_view message);

// What the host says about itself to a plugin's entry point.
const loupe_host_info& host_info();

}  // namespace loupe::core
