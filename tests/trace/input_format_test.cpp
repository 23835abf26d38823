// Inputs Loupe does not read, told apart by content before the parse (input_format.hpp), and
// the UTF-8 byte-order mark skipped in plain and gzip traces. Each format is a small hand-made
// file: its magic bytes or first line, which is all the check looks at.
#include <catch2/catch.hpp>

#include <string>

#include "loupe/core/trace/input_format.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "trace_text.hpp"

namespace tr = loupe::core::trace;
using loupe::test::trace::gzip;
using loupe::test::trace::small_trace;
using tr::InputFormat;

namespace {

std::string varint(std::size_t v) {
  std::string out;
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
  return out;
}

// A length-delimited protobuf field.
std::string field(int number, const std::string& payload) {
  return varint(static_cast<std::size_t>(number) << 3 | 2) + varint(payload.size()) + payload;
}

// An XSpace with one XPlane (id 1, name "/host:CPU"), as JAX's profiler writes it.
std::string xplane() {
  return field(1, std::string("\x08\x01", 2) + field(2, "/host:CPU")) +
         field(1, std::string("\x08\x02", 2) + field(2, "/device:GPU:0"));
}

// A Perfetto trace: one packet carrying the synchronization marker (TracePacket field 36).
std::string perfetto() {
  const std::string marker("\x82\x47\x7a\x76\xb2\x8d\x42\xba\x81\xdc\x33\x32\x6d\x57\xa0\x79", 16);
  return field(1, field(36, marker)) + field(1, std::string("\x40\x05", 2));
}

std::string sqlite(const std::string& schema) {
  std::string page("SQLite format 3\0", 16);
  page += std::string("\x10\x00\x01\x01\x00\x40\x20\x20", 8);
  page.resize(100, '\0');
  page += "CREATE TABLE " + schema + "(id INTEGER PRIMARY KEY)";
  page.resize(4096, '\0');
  return page;
}

InputFormat format_of(const std::string& bytes, const std::string& name = "input") {
  return tr::identify_input(bytes, true, name).format;
}

}  // namespace

TEST_CASE("other profilers' outputs are named by their content", "[trace][input_format]") {
  CHECK(format_of(xplane(), "trace.bin") == InputFormat::kXPlane);
  CHECK(format_of(perfetto(), "trace.bin") == InputFormat::kPerfetto);
  // A protobuf stream with neither signature is still not JSON.
  CHECK(format_of(field(1, std::string("\x08\x01", 2)), "trace.bin") == InputFormat::kProtobuf);
  CHECK(format_of(sqlite("CUPTI_ACTIVITY_KIND_KERNEL")) == InputFormat::kNsysSqlite);
  CHECK(format_of(sqlite("rocpd_kernel_dispatch")) == InputFormat::kRocpdSqlite);
  CHECK(format_of(sqlite("people")) == InputFormat::kSqlite);
  CHECK(format_of("\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Kernel_Id\",\"Kernel_Name\","
                  "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\"\n"
                  "\"KERNEL_DISPATCH\",1,1,7,\"k\",3,100,200\n") == InputFormat::kRocprofCsv);
  CHECK(format_of("name,value\na,1\n") == InputFormat::kCsv);
  CHECK(format_of(R"({"rocprofiler-sdk-tool":[{"metadata":{"pid":1}}]})") ==
        InputFormat::kRocprofJson);
  CHECK(format_of("\xFF\xFE{\0\"\0", "t.json") == InputFormat::kUtf16Text);
  CHECK(format_of("") == InputFormat::kEmpty);
  CHECK(format_of(" \n\t ") == InputFormat::kEmpty);
  // Nsight Systems' report container has no signature checked here: its binary content and
  // its name make it one; the same bytes under another name are only "binary".
  const std::string binary("\x01\x02\x03\x04\x00\xff\xfe\x10", 8);
  CHECK(format_of(binary, "run.nsys-rep") == InputFormat::kNsysReport);
  CHECK(format_of(binary, "run.qdrep") == InputFormat::kNsysReport);
  CHECK(format_of(binary, "run.bin") == InputFormat::kBinary);
  CHECK_FALSE(tr::identify_input(binary, true, "run.bin").readable());
}

TEST_CASE("a JSON object without traceEvents is refused with its keys; traces are not",
          "[trace][input_format]") {
  const auto other =
      tr::identify_input(R"({"a": 1, "b": {"traceEvents": []}, "c": "x"})", true, "");
  CHECK(other.format == InputFormat::kNonKinetoJson);
  CHECK_THAT(other.description, Catch::Contains("\"a\", \"b\", \"c\""));
  CHECK(format_of("{}") == InputFormat::kNonKinetoJson);
  CHECK(format_of(small_trace()) == InputFormat::kJsonText);
  CHECK(format_of("[{\"ph\":\"X\"}]") == InputFormat::kJsonText);
  CHECK(format_of("[]") == InputFormat::kJsonText);  // an empty event list: the parse decides
  // A list of something else (a run's side file listing its traces).
  const auto list = tr::identify_input(R"([ {"file": "t.json.gz", "batch_size": 32} ])", true, "");
  CHECK(list.format == InputFormat::kNonKinetoJson);
  CHECK_THAT(list.description, Catch::Contains("\"file\", \"batch_size\""));
  // An object still open at the end of what was looked at: the parse decides.
  const std::string long_metadata = "{\"meta\":\"" + std::string(tr::kInputSniffBytes, 'x');
  CHECK(tr::identify_input(long_metadata.substr(0, tr::kInputSniffBytes), false, "").readable());
  // Malformed JSON text goes to the parser, which names the offset.
  CHECK(format_of("{\"traceEvents\": [,]}") == InputFormat::kJsonText);
  CHECK(format_of("hello") == InputFormat::kJsonText);
  // A stray control byte inside a string is the parser's to report, not "binary".
  CHECK(format_of("{\"traceEvents\":[{\"name\":\"a\x01"
                  "b\"}]}") == InputFormat::kJsonText);
}

TEST_CASE("the loader refuses unsupported formats without a byte offset, gzip or not",
          "[trace][input_format]") {
  for (const std::string& bytes : {xplane(), gzip(xplane()), sqlite("rocpd_info_agent"),
                                   std::string(R"({"rocprofiler-sdk-tool":[]})")}) {
    const auto r = tr::load_trace_bytes(bytes);
    REQUIRE(r.error);
    CHECK(r.error->unsupported_format);
    CHECK_THAT(r.error->describe(), Catch::Contains("not a PyTorch profiler trace"));
    CHECK(r.error->describe().rfind("byte ", 0) == std::string::npos);
    CHECK(r.model.event_count() == 0);
  }
  const auto x = tr::load_trace_bytes(gzip(xplane()));
  CHECK_THAT(x.error->message, Catch::Contains("XSpace"));
  // A parse error keeps its offset.
  const auto cut = tr::load_trace_bytes(small_trace().substr(0, 40));
  REQUIRE(cut.error);
  CHECK_FALSE(cut.error->unsupported_format);
  CHECK_THAT(cut.error->describe(), Catch::StartsWith("byte "));
}

TEST_CASE("a UTF-8 byte-order mark is skipped, plain and inside gzip, at any chunk size",
          "[trace][input_format]") {
  const std::string bom = "\xEF\xBB\xBF";
  const std::string text = small_trace();
  for (const std::size_t chunk :
       {std::size_t{1}, std::size_t{2}, std::size_t{7}, std::size_t{1} << 20}) {
    tr::LoadOptions options;
    options.chunk_bytes = chunk;
    options.read_ahead = chunk > 2;
    for (const std::string& bytes : {bom + text, gzip(bom + text)}) {
      const auto r = tr::load_trace_bytes(bytes, options);
      INFO("chunk " << chunk << (r.error ? ": " + r.error->describe() : std::string()));
      REQUIRE_FALSE(r.error);
      CHECK(r.model.event_count() == 5);
      CHECK(r.json_bytes == text.size());  // the JSON text starts after the mark
    }
  }
  // Only the first three bytes are a mark: one later is a parse error at its offset.
  const auto later = tr::load_trace_bytes(" " + bom + text);
  REQUIRE(later.error);
  CHECK(later.error->offset == 1);
  // A mark alone is an empty file.
  const auto alone = tr::load_trace_bytes(bom);
  REQUIRE(alone.error);
  CHECK(alone.error->unsupported_format);
  CHECK_THAT(alone.error->message, Catch::Contains("empty"));
}
