// The trace reader on arbitrary bytes (plain JSON; gzip magic takes the inflate path), then the
// event tree and GPU timeline on whatever loaded.
#include <cstddef>
#include <cstdint>
#include <string>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/json_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace tr = loupe::core::trace;
  auto loaded = tr::load_trace_bytes(std::string(reinterpret_cast<const char*>(data), size));
  if (loaded.error) return 0;
  const auto tree = tr::EventTree::build(loaded.model);
  (void)tree.cpu_root_nodes().size();
  return 0;
}
