#include "host_transfer.hpp"

#include <string>

#include "loupe/text.hpp"

namespace loupe::elementwise {

bool is_host_device_copy(std::string_view kernel_name) {
  const std::string n = text::ascii_lower(kernel_name);
  for (const std::string_view marker :
       {"memcpy htod", "memcpy dtoh", "copyhosttodevice", "copydevicetohost"}) {
    if (n.find(marker) != std::string::npos) return true;
  }
  return false;
}

bool only_host_device_copies(std::string_view kernel_details) {
  static constexpr std::string_view kKey = "'name': ";
  std::size_t names = 0;
  std::size_t at = 0;
  while ((at = kernel_details.find(kKey, at)) != std::string_view::npos) {
    at += kKey.size();
    if (at >= kernel_details.size()) return false;
    const char quote = kernel_details[at];
    if (quote != '\'' && quote != '"') return false;
    const std::size_t end = kernel_details.find(quote, at + 1);
    if (end == std::string_view::npos) return false;
    if (!is_host_device_copy(kernel_details.substr(at + 1, end - at - 1))) return false;
    ++names;
    at = end + 1;
  }
  return names > 0;
}

}  // namespace loupe::elementwise
