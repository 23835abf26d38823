// What an input file is, told from its first bytes before any parse: Loupe reads PyTorch
// profiler (Kineto) JSON traces, plain or gzip; other profilers' outputs are named so that the
// refusal says what the file is instead of a JSON parse error at byte 1 (docs/contracts/
// trace_model.md, "Inputs Loupe does not read").
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>
#include <string_view>

namespace loupe::core::trace {

class ByteSource;

enum class InputFormat {
  kJsonText,       // JSON text that may be a Kineto trace: the parse decides
  kEmpty,          // no bytes (after a gzip container and a byte-order mark)
  kNonKinetoJson,  // a complete JSON object without traceEvents
  kRocprofJson,    // rocprofv3 --output-format json ("rocprofiler-sdk-tool")
  kRocprofCsv,     // rocprofv3 CSV (kernel_trace.csv, hip_api_trace.csv, ...)
  kCsv,            // other comma-separated text
  kXPlane,         // JAX / TensorFlow / TensorBoard profiler XSpace protobuf (.xplane.pb)
  kPerfetto,       // Perfetto protobuf trace (.pftrace, .perfetto-trace; rocprofv3 pftrace)
  kProtobuf,       // another protobuf message stream
  kNsysReport,     // Nsight Systems report (.nsys-rep, .qdrep, .qdstrm)
  kNsysSqlite,     // Nsight Systems SQLite export (nsys export --type sqlite)
  kRocpdSqlite,    // rocprofv3 rocpd database (rocpd_* tables)
  kSqlite,         // another SQLite database
  kUtf16Text,      // text with a UTF-16 byte-order mark
  kBinary,         // bytes that are not text
};

struct InputFormatInfo {
  InputFormat format = InputFormat::kJsonText;
  // What the file is, for a message: "a JAX / TensorBoard XSpace profile (.xplane.pb)".
  std::string description;
  // Only JSON text goes to the parser; everything else is refused before it.
  bool readable() const { return format == InputFormat::kJsonText; }
};

// Bytes looked at: the first kInputSniffBytes of the file's text (inflated when gzip).
inline constexpr std::size_t kInputSniffBytes = 256u << 10;

// Identifies `head`, the first bytes of the text (after gzip and a UTF-8 byte-order mark are
// removed); `complete` says `head` is the whole text; `file_name` only names a format whose
// content has no signature of its own (Nsight Systems' .nsys-rep container).
InputFormatInfo identify_input(std::string_view head, bool complete, std::string_view file_name);

// The same for the text of `source` (reads its first kInputSniffBytes; the source is used up).
InputFormatInfo identify_input_source(ByteSource& source, std::string_view file_name);
// The same for a file (gzip inflated). Throws std::runtime_error when it cannot be opened.
InputFormatInfo identify_input_file(const std::filesystem::path& path);

// One line for a refused input: "<description>, not a PyTorch profiler trace; Loupe reads
// Kineto JSON (.json / .json.gz) from torch.profiler".
std::string unsupported_input_message(const InputFormatInfo& info);

}  // namespace loupe::core::trace
