#include "loupe/core/trace/input_format.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "loupe/core/trace/byte_source.hpp"
#include "loupe/text.hpp"

namespace loupe::core::trace {

namespace {

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

using loupe::text::contains;

bool json_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Text starts (after JSON whitespace) with a byte that is not a control byte and has no NUL and at
// most a few other control bytes in its first 4 KiB. JSON may not hold a raw control byte but as
// whitespace, so this can only misname a file that would fail to parse anyway, and a stray
// control character in a string still gets the parser's message with its offset.
bool looks_like_text(std::string_view head) {
  const std::size_t n = std::min<std::size_t>(head.size(), 4096);
  std::size_t first = 0;
  while (first < n && json_space(head[first])) ++first;
  if (first < n) {
    const auto c = static_cast<unsigned char>(head[first]);
    if (c < 0x20 || c == 0x7f) return false;
  }
  int controls = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const auto c = static_cast<unsigned char>(head[i]);
    if (c == 0) return false;
    if ((c < 0x20 && !json_space(static_cast<char>(c))) || c == 0x7f) ++controls;
  }
  return controls < 4;
}

// The keys of a JSON object's top level seen in `head` (which starts at the '{'), in order;
// `closed` is set when the object ends inside `head`. A light scan: strings and nesting only.
std::vector<std::string> top_level_keys(std::string_view head, bool& closed) {
  std::vector<std::string> keys;
  closed = false;
  int depth = 0;
  bool expect_key = false;
  for (std::size_t i = 0; i < head.size(); ++i) {
    const char c = head[i];
    if (c == '"') {
      const std::size_t start = i + 1;
      for (++i; i < head.size() && head[i] != '"'; ++i) {
        if (head[i] == '\\') ++i;
      }
      if (i >= head.size()) break;
      if (depth == 1 && expect_key) {
        keys.emplace_back(head.substr(start, i - start));
        expect_key = false;
      }
      continue;
    }
    if (c == '{' || c == '[') {
      ++depth;
      if (depth == 1) expect_key = true;
    } else if (c == '}' || c == ']') {
      if (--depth == 0) {
        closed = true;
        break;
      }
    } else if (c == ',' && depth == 1) {
      expect_key = true;
    }
  }
  return keys;
}

std::optional<std::uint64_t> read_varint(std::string_view s, std::size_t& pos) {
  std::uint64_t value = 0;
  for (int shift = 0; shift < 64 && pos < s.size(); shift += 7) {
    const auto b = static_cast<unsigned char>(s[pos++]);
    value |= static_cast<std::uint64_t>(b & 0x7f) << shift;
    if ((b & 0x80) == 0) return value;
  }
  return std::nullopt;
}

// A protobuf message stream whose top-level fields are all length-delimited (XSpace's planes
// and hostnames, Perfetto's packets): walks them over `head`; the last may run past its end
// when the head is not the whole file.
bool looks_like_protobuf(std::string_view head, bool complete) {
  std::size_t pos = 0;
  int fields = 0;
  while (pos < head.size()) {
    const auto tag = read_varint(head, pos);
    if (!tag) return !complete && fields > 0;
    const std::uint64_t field = *tag >> 3;
    if (field == 0 || field > 16 || (*tag & 7) != 2) return false;
    const auto length = read_varint(head, pos);
    if (!length) return !complete && fields > 0;
    ++fields;
    if (*length > head.size() - pos) return !complete;
    pos += static_cast<std::size_t>(*length);
  }
  return fields > 0;
}

std::string quoted_list(const std::vector<std::string>& keys) {
  std::string out;
  const std::size_t shown = std::min<std::size_t>(keys.size(), 6);
  for (std::size_t i = 0; i < shown; ++i) {
    if (i > 0) out += ", ";
    std::string key = keys[i].substr(0, 40);
    for (char& c : key) {
      if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
    }
    out += "\"" + key + "\"";
  }
  if (keys.size() > shown) out += ", ...";
  return out;
}

InputFormatInfo make(InputFormat format, std::string description) {
  return InputFormatInfo{format, std::move(description)};
}

InputFormatInfo identify_binary(std::string_view head, bool complete, std::string_view name) {
  constexpr std::string_view kSqlite("SQLite format 3\0", 16);
  if (head.substr(0, kSqlite.size()) == kSqlite) {
    if (contains(head, "rocpd_")) {
      return make(InputFormat::kRocpdSqlite, "a rocprofv3 rocpd database (SQLite)");
    }
    if (contains(head, "CUPTI_ACTIVITY_KIND") || contains(head, "TARGET_INFO_") ||
        contains(head, "NVTX_EVENTS")) {
      return make(InputFormat::kNsysSqlite,
                  "an Nsight Systems SQLite export (nsys export --type sqlite)");
    }
    return make(InputFormat::kSqlite, "an SQLite database");
  }
  if (ends_with(name, ".nsys-rep") || ends_with(name, ".qdrep") || ends_with(name, ".qdstrm")) {
    return make(InputFormat::kNsysReport, "an Nsight Systems report (.nsys-rep)");
  }
  constexpr std::array<unsigned char, 16> kPerfettoSync = {0x82, 0x47, 0x7a, 0x76, 0xb2, 0x8d,
                                                           0x42, 0xba, 0x81, 0xdc, 0x33, 0x32,
                                                           0x6d, 0x57, 0xa0, 0x79};
  const std::string_view sync(reinterpret_cast<const char*>(kPerfettoSync.data()),
                              kPerfettoSync.size());
  if (looks_like_protobuf(head, complete)) {
    if (contains(head, "/host:CPU") || contains(head, "/device:GPU:") ||
        contains(head, "/device:TPU:") || contains(head, "/host:metadata") ||
        ends_with(name, ".xplane.pb")) {
      return make(InputFormat::kXPlane, "a JAX / TensorBoard XSpace profile (.xplane.pb)");
    }
    if (contains(head, sync) || ends_with(name, ".pftrace") || ends_with(name, ".perfetto-trace")) {
      return make(InputFormat::kPerfetto, "a Perfetto protobuf trace");
    }
    return make(InputFormat::kProtobuf,
                "a protobuf file (such as a Perfetto trace or a JAX / TensorBoard XSpace)");
  }
  return make(InputFormat::kBinary, "binary data, not JSON text");
}

InputFormatInfo identify_text(std::string_view head, bool complete) {
  std::size_t first = 0;
  while (first < head.size() && json_space(head[first])) ++first;
  if (first == head.size()) {
    return complete ? make(InputFormat::kEmpty, "an empty file (only whitespace)")
                    : make(InputFormat::kJsonText, "JSON text");
  }
  const std::string_view text = head.substr(first);
  if (text.front() == '{') {
    bool closed = false;
    const auto keys = top_level_keys(text, closed);
    for (const auto& key : keys) {
      if (key == "traceEvents") return make(InputFormat::kJsonText, "JSON text");
      if (key == "rocprofiler-sdk-tool") {
        return make(InputFormat::kRocprofJson, "a rocprofv3 JSON output (rocprofiler-sdk-tool)");
      }
    }
    if (closed) {
      return make(InputFormat::kNonKinetoJson,
                  "a JSON object without traceEvents" +
                      (keys.empty() ? std::string(" (an empty object)")
                                    : " (top-level keys: " + quoted_list(keys) + ")"));
    }
    return make(InputFormat::kJsonText, "JSON text");
  }
  if (text.front() == '[') {
    // The array form of a trace is a list of events: its first element has "ph" or "ts".
    std::size_t element = 1;
    while (element < text.size() && json_space(text[element])) ++element;
    if (element < text.size() && text[element] == '{') {
      bool closed = false;
      const auto keys = top_level_keys(text.substr(element), closed);
      const bool event = std::any_of(keys.begin(), keys.end(), [](const std::string& key) {
        return key == "ph" || key == "ts";
      });
      if (closed && !event) {
        return make(InputFormat::kNonKinetoJson,
                    "a JSON array whose first element is not a trace event (its keys: " +
                        quoted_list(keys) + ")");
      }
    }
    return make(InputFormat::kJsonText, "JSON text");
  }
  // CSV: rocprofv3's column names in the first line, or two lines with the same number of
  // commas (a one-line JSON-like text with commas is left to the parser).
  const std::size_t eol = text.find('\n');
  const std::string_view line = text.substr(0, eol);
  int rocprof_columns = 0;
  for (const char* column :
       {"Correlation_Id", "Kernel_Name", "Dispatch_Id", "Agent_Id", "Start_Timestamp"}) {
    if (contains(line, column)) ++rocprof_columns;
  }
  if (rocprof_columns >= 2 && contains(line, ",")) {
    return make(InputFormat::kRocprofCsv, "a rocprofv3 CSV output (kernel_trace.csv and the like)");
  }
  if (eol != text.npos) {
    const std::string_view rest = text.substr(eol + 1);
    const std::string_view second = rest.substr(0, rest.find('\n'));
    const auto commas = [](std::string_view l) { return std::count(l.begin(), l.end(), ','); };
    if (commas(line) > 0 && commas(line) == commas(second)) {
      return make(InputFormat::kCsv, "a CSV table");
    }
  }
  return make(InputFormat::kJsonText, "JSON text");  // the parse names what is wrong
}

}  // namespace

InputFormatInfo identify_input(std::string_view head, bool complete, std::string_view file_name) {
  if (head.empty()) return make(InputFormat::kEmpty, "an empty file");
  if (head.size() >= 2 &&
      ((head[0] == '\xFF' && head[1] == '\xFE') || (head[0] == '\xFE' && head[1] == '\xFF'))) {
    return make(InputFormat::kUtf16Text, "UTF-16 text (save it as UTF-8)");
  }
  if (!looks_like_text(head)) return identify_binary(head, complete, file_name);
  return identify_text(head, complete);
}

InputFormatInfo identify_input_source(ByteSource& source, std::string_view file_name) {
  std::string head;
  bool complete = false;
  while (head.size() < kInputSniffBytes) {
    const std::string_view chunk = source.next_chunk();
    if (chunk.empty()) {
      complete = source.error().empty();
      break;
    }
    head.append(chunk.substr(0, kInputSniffBytes - head.size()));
  }
  // A container the byte source cannot read (corrupt gzip): the loader names the problem.
  if (head.empty() && !source.error().empty()) return make(InputFormat::kJsonText, "JSON text");
  return identify_input(head, complete, file_name);
}

InputFormatInfo identify_input_file(const std::filesystem::path& path) {
  const auto source = open_byte_source(path, 64u << 10);
  return identify_input_source(*source, path.filename().string());
}

std::string unsupported_input_message(const InputFormatInfo& info) {
  return info.description +
         ", not a PyTorch profiler trace; Loupe reads the Kineto JSON (.json / .json.gz) that "
         "torch.profiler writes";
}

}  // namespace loupe::core::trace
