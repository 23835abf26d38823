#include "trace_loading.hpp"

#include <malloc.h>

#include <chrono>

#include <spdlog/spdlog.h>

namespace loupe::core::session {

namespace fs = std::filesystem;

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

Expected<trace::LoadResult> load_trace_file(const fs::path& path, const SessionOptions& options) {
  std::error_code ec;
  const auto file_size = fs::file_size(path, ec);
  if (ec) return Error{ErrorKind::Input, "cannot read " + path.string() + ": " + ec.message()};
  trace::LoadOptions load_options;
  if (options.load_progress) load_options.progress = options.load_progress(path, file_size);
  const auto start = std::chrono::steady_clock::now();
  trace::LoadResult loaded;
  try {
    loaded = trace::load_trace(path, load_options);
  } catch (const std::exception& e) {
    return Error{ErrorKind::Input, e.what()};
  }
  if (loaded.error) {
    std::string message = path.string() + ": " + loaded.error->describe();
    if (!loaded.error->unsupported_format) {
      message += " (" + std::to_string(loaded.model.event_count()) + " events read before it)";
    }
    return Error{ErrorKind::Input, std::move(message)};
  }
  // The parse's windows and per-block models were freed in the parsing threads' arenas, which
  // the preparation (on this thread) does not reuse: hand their pages back now rather than carry
  // them to the peak (docs/performance.md, "Big traces").
  ::malloc_trim(0);
  spdlog::info("loaded {} events from {} in {:.2f} s ({})", loaded.model.event_count(),
               path.string(), seconds_since(start),
               loaded.parallel_blocks > 0
                   ? std::to_string(loaded.parallel_blocks) + " blocks parsed in parallel"
                   : std::string("parsed on one thread"));
  return loaded;
}

std::optional<prepare::ArchSelection> select_trace2_arch(const TraceInputs& inputs,
                                                         bool compat_tracelens,
                                                         const trace::LoadResult& loaded2,
                                                         const prepare::ArchSelection& arch1) {
  if (inputs.arch_file2 || inputs.platform2) {
    auto arch = prepare::select_arch_for_devices(inputs.arch_file2, inputs.platform2, {});
    if (inputs.arch_file2) {
      arch.reason = "arch spec from " + inputs.arch_file2->string() + " (--arch2)";
    }
    if (inputs.platform2) arch.reason = "platform " + arch.platform + " (--platform2)";
    return arch;
  }
  if (compat_tracelens) return std::nullopt;
  auto own = prepare::select_arch_for_devices(std::nullopt, std::nullopt,
                                              prepare::trace_devices(loaded2.model));
  if (own.from_device) return own;
  prepare::ArchSelection same = arch1;
  same.reason = "platform " + arch1.platform +
                ", as trace 1 (trace 2 names no bundled device; --platform2 or --arch2 to choose)";
  return same;
}

}  // namespace loupe::core::session
