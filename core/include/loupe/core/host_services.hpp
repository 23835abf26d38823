// The host side of the C ABI: the services table handed to plugins, and the conversions between
// the opaque ABI handles and the host's own types.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "loupe/abi.h"
#include "loupe/core/model.hpp"

namespace loupe::core {

// Everything one analyze() call handed back to the host.
struct RunOutput {
  std::optional<std::string> metrics_json;
  std::optional<std::string> findings_json;
  std::vector<std::string> errors;
};

// The output channel behind a loupe_run handle.
class RunChannel {
 public:
  explicit RunChannel(std::string plugin_name) : plugin_name_(std::move(plugin_name)) {}
  const std::string& plugin_name() const { return plugin_name_; }
  RunOutput& output() { return output_; }
  loupe_run* handle() { return reinterpret_cast<loupe_run*>(this); }
  static RunChannel* from(loupe_run* run) { return reinterpret_cast<RunChannel*>(run); }

 private:
  std::string plugin_name_;
  RunOutput output_;
};

inline const loupe_model* to_handle(const Model& model) {
  return reinterpret_cast<const loupe_model*>(&model);
}

// The services table of this host (static storage, ABI version LOUPE_ABI_MAJOR.MINOR).
const loupe_host_services& host_services();

// What the host says about itself to a plugin's entry point.
const loupe_host_info& host_info();

}  // namespace loupe::core
