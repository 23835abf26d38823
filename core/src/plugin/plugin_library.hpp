// One opened plugin library (dlopen/dlclose) and its entry point. Opening runs the library's
// static constructors: only a sandboxed child (or a --no-isolate debugging run) does that.
#pragma once

#include <filesystem>
#include <string>

#include "loupe/abi.h"

namespace loupe::core {

class PluginLibrary {
 public:
  PluginLibrary() = default;
  PluginLibrary(const PluginLibrary&) = delete;
  PluginLibrary& operator=(const PluginLibrary&) = delete;
  ~PluginLibrary() = default;  // never dlclose()d: see open()

  // Opens the file and calls its entry point. Returns "" or why it is not a usable plugin.
  // The library stays mapped for the life of the process (RTLD_NODELETE): its static
  // destructors never run in a state the plugin does not expect.
  std::string open(const std::filesystem::path& path);
  const loupe_plugin_descriptor* descriptor() const { return descriptor_; }

 private:
  void* handle_ = nullptr;
  const loupe_plugin_descriptor* descriptor_ = nullptr;
};

}  // namespace loupe::core
