// The trace reader on arbitrary bytes (plain JSON; gzip magic takes the inflate path), then the
// event tree and GPU timeline on whatever loaded. Differential: the same bytes are loaded again
// by the parallel reader with tiny blocks (so nearly every element boundary is a block boundary,
// and every guess the block cutter makes is exercised); its model, warnings and error must be
// exactly the sequential reader's (tests/trace/trace_text.hpp's model_dump), or the target aborts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../tests/trace/trace_text.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/json_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace tr = loupe::core::trace;
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  tr::LoadOptions sequential;
  sequential.parse_threads = 1;
  auto loaded = tr::load_trace_bytes(bytes, sequential);

  tr::LoadOptions parallel;
  parallel.parse_threads = 2;
  parallel.parse_block_bytes = 1 + size % 61;
  parallel.chunk_bytes = 1 + size % 29;
  const auto again = tr::load_trace_bytes(bytes, parallel);
  if (loupe::test::trace::model_dump(again) != loupe::test::trace::model_dump(loaded)) {
    std::fprintf(stderr, "parallel load differs from the sequential one\n");
    std::abort();
  }

  if (loaded.error) return 0;
  const auto tree = tr::EventTree::build(loaded.model);
  (void)tree.cpu_root_nodes().size();
  return 0;
}
