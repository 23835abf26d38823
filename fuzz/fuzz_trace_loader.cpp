// The trace reader on arbitrary bytes (plain JSON; gzip magic takes the inflate path), then the
// event tree and GPU timeline on whatever loaded. Differential: the same bytes are loaded again
// by the parallel reader with tiny blocks (so nearly every element boundary is a block boundary,
// and every guess the block cutter makes is exercised); its model, warnings and error must be
// exactly the sequential reader's (tests/trace/trace_text.hpp's model_dump), or the target aborts.
// Plain inputs are also wrapped in a gzip member whose trailer is damaged for some inputs (CRC,
// length) or that is cut short, so that container errors meet JSON errors: the error precedence
// must not depend on the reader or on how far it read ahead (docs/performance.md, "Errors of a
// .json.gz").
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "../tests/trace/trace_text.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace {

namespace tr = loupe::core::trace;

// Loads `bytes` sequentially and in parallel (tiny blocks and chunks chosen from `size`); aborts
// when the two differ. Returns the sequential load.
tr::LoadResult load_both_ways(const std::string& bytes, std::size_t size) {
  tr::LoadOptions sequential;
  sequential.parse_threads = 1;
  sequential.read_ahead = size % 2 == 0;
  auto loaded = tr::load_trace_bytes(bytes, sequential);

  tr::LoadOptions parallel;
  parallel.parse_threads = 2;
  parallel.parse_block_bytes = 1 + size % 61;
  parallel.chunk_bytes = 1 + size % 29;
  const auto again = tr::load_trace_bytes(bytes, parallel);
  const std::string want = loupe::test::trace::model_dump(loaded);
  const std::string got = loupe::test::trace::model_dump(again);
  if (got != want) {
    // The first line that differs, to tell the two loads apart at a glance.
    std::size_t at = 0;
    while (at < want.size() && at < got.size() && want[at] == got[at]) ++at;
    const std::size_t line =
        want.rfind('\n', at) == std::string::npos ? 0 : want.rfind('\n', at) + 1;
    std::fprintf(
        stderr,
        "parallel load differs from the sequential one:\n  sequential: %s\n  parallel:   %s\n",
        want.substr(line, want.find('\n', line) - line).c_str(),
        got.substr(line, got.find('\n', line) - line).c_str());
    std::abort();
  }
  return loaded;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string bytes(reinterpret_cast<const char*>(data), size);
  auto loaded = load_both_ways(bytes, size);

  const bool gzip_input = size >= 2 && data[0] == 0x1f && data[1] == 0x8b;
  if (!gzip_input && size > 0) {
    std::string gz = loupe::test::trace::gzip(bytes);
    switch (data[size - 1] % 4) {
      case 1:  // CRC-32
        gz[gz.size() - 8] = static_cast<char>(gz[gz.size() - 8] ^ 0x5a);
        break;
      case 2:  // ISIZE
        gz[gz.size() - 1] = static_cast<char>(gz[gz.size() - 1] ^ 0x01);
        break;
      case 3:  // cut inside the member
        gz.resize(gz.size() - 1 - data[0] % (gz.size() - 1));
        break;
      default:  // intact
        break;
    }
    (void)load_both_ways(gz, size);
  }

  if (loaded.error) return 0;
  const auto tree = tr::EventTree::build(loaded.model);
  (void)tree.cpu_root_nodes().size();
  return 0;
}
