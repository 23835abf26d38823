#include "plugin_library.hpp"

#include <dlfcn.h>

#include <cstring>

#include "loupe/core/abi/host_services.hpp"

namespace loupe::core {

std::string PluginLibrary::open(const std::filesystem::path& path) {
  ::dlerror();
  handle_ = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE);
  if (handle_ == nullptr) {
    const char* why = ::dlerror();
    return std::string("not a loadable shared library (") + (why ? why : "unknown error") + ")";
  }
  void* symbol = ::dlsym(handle_, LOUPE_PLUGIN_ENTRY_SYMBOL);
  if (symbol == nullptr) return std::string("no entry symbol '") + LOUPE_PLUGIN_ENTRY_SYMBOL + "'";
  loupe_plugin_entry_fn entry = nullptr;
  static_assert(sizeof(entry) == sizeof(symbol));
  std::memcpy(&entry, &symbol, sizeof(entry));
  descriptor_ = entry(&host_info());
  if (descriptor_ == nullptr) return "entry point returned NULL (the plugin refused this host)";
  return {};
}

}  // namespace loupe::core
