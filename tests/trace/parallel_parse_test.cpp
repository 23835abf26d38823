// The parallel parse of traceEvents (core/src/trace/parallel_event_reader.hpp): for any input,
// any number of threads, any block and chunk size, the load must give exactly the model, the
// warnings and the error of the sequential reader. Blocks start at guessed element boundaries,
// so the inputs here include separators inside elements (wrong guesses), elements only RapidJSON
// reads, every kind of warning spread over many blocks, and errors late in the array.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "loupe/core/trace/json_reader.hpp"
#include "test_paths.hpp"
#include "trace_text.hpp"

namespace fs = std::filesystem;
namespace tr = loupe::core::trace;
using loupe::test::trace::gzip;
using loupe::test::trace::model_dump;

namespace {

struct Style {
  std::string indent;  // before each element, after the line break ("" = one event per line)
  bool fake_separators = false;  // args holding an array of objects laid out like the events
  bool one_line = false;         // the whole array on one line, elements separated by ", "
};

// Event `i` of a generated trace, laid out like Kineto's indented output (or one per line).
std::string event(int i, const Style& style) {
  const std::string nl = style.indent.empty() ? "" : "\n" + style.indent + "  ";
  const std::string end = style.indent.empty() ? "" : "\n" + style.indent;
  const int pid = 100 + i % 3;
  if (i % 97 == 5) {  // process names change: the last `M` record must win
    return "{" + nl + R"("ph": "M", "name": "process_name", "pid": )" + std::to_string(pid) +
           R"(, "tid": 0,)" + nl + R"("args": {"name": "proc )" + std::to_string(i) + "\"}" + end +
           "}";
  }
  if (i % 89 == 7) {  // sort index, present or not
    return "{" + nl + R"("ph": "M", "name": "thread_sort_index", "pid": )" + std::to_string(pid) +
           R"(, "tid": )" + std::to_string(i % 5) + "," + nl +
           (i % 2 == 0 ? R"("args": {"sort_index": )" + std::to_string(i) + "}"
                       : std::string(R"("args": {})")) +
           end + "}";
  }
  if (i % 211 == 3) return "42";  // not an object (a warning)
  std::string e = "{" + nl;
  if (i % 173 != 11) e += i % 151 == 9 ? R"("ph": "Z", )" : R"("ph": "X", )";
  e += i % 7 == 0 ? R"("cat": "kernel", )" : R"("cat": "cpu_op", )";
  e += R"("name": ")";
  e += i % 59 == 1 ? "bad \xff utf8" : i % 23 == 2 ? "caf\\u00e9 \\\"q\\\"" : "aten::op";
  e += std::to_string(i % 40) + "\",";
  e += nl + (i % 127 == 4 ? std::string(R"("pid": "Spans")") : R"("pid": )" + std::to_string(pid));
  e += R"(, "tid": )" + std::to_string(i % 5) + ",";
  e += nl + R"("ts": )" + std::to_string(1000 + i * 10) + (i % 13 == 0 ? ".1234" : ".5");
  e += R"(, "dur": )" + std::string(i % 191 == 6 ? "-1" : std::to_string(i % 9)) + ",";
  e += nl + R"("args": {"External id": )" + std::to_string(i) + R"(, "Sequence number": )" +
       std::to_string(i / 2);
  if (i % 31 == 0) e += R"(, "scale": 1e-05)";  // an exponent: read by RapidJSON
  if (i % 17 == 0) e += R"(, "Input Dims": [[1, 2], [3]], "flag": true, "none": null)";
  if (style.fake_separators && i % 41 == 40) {
    e += R"(, "list": [{"a": 1},)" + std::string(style.one_line ? " " : "\n") + style.indent +
         R"({"b": [2]}])";
  }
  e += "}" + end + "}";
  return e;
}

std::string generated_trace(int events, const Style& style) {
  std::string text = "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [";
  for (int i = 0; i < events; ++i) {
    if (style.one_line) {
      text += (i == 0 ? "" : ", ") + event(i, style);
    } else {
      text += (i == 0 ? "\n" : ",\n") + style.indent + event(i, style);
    }
  }
  // Trailing metadata holding the same separator as the events.
  const std::string nl = style.one_line ? " " : "\n";
  const std::string indent = style.one_line ? "" : style.indent;
  text += nl + "  ],\n  \"deviceProperties\": [" + nl + indent + "{\"id\": 0}," + nl + indent +
          "{\"id\": 1}" + nl + "  ],\n  \"traceName\": \"t\"\n}\n";
  return text;
}

tr::LoadResult load(const std::string& bytes, unsigned threads, std::size_t block,
                    std::size_t chunk = 1u << 20) {
  tr::LoadOptions options;
  options.parse_threads = threads;
  options.parse_block_bytes = block;
  options.chunk_bytes = chunk;
  return tr::load_trace_bytes(bytes, options);
}

// Loads `text` with 2 and 3 threads, several block and chunk sizes, plain and gzip; every load
// must dump exactly like the sequential one. Returns the most blocks a load parsed in parallel.
std::size_t check_same_as_sequential(const std::string& text) {
  const tr::LoadResult sequential = load(text, 1, 1u << 20);
  CHECK(sequential.parallel_blocks == 0);
  const std::string expected = model_dump(sequential);
  std::size_t most_blocks = 0;
  struct Config {
    unsigned threads;
    std::size_t block, chunk;
  };
  // Blocks of about one element, of several, and chunks smaller than an element.
  for (const Config c : {Config{2, 1000, 1u << 20}, Config{3, 4096, 4099}, Config{2, 4096, 61}}) {
    INFO("threads " << c.threads << ", block " << c.block << ", chunk " << c.chunk);
    const tr::LoadResult parallel = load(text, c.threads, c.block, c.chunk);
    CHECK(model_dump(parallel) == expected);
    most_blocks = std::max(most_blocks, parallel.parallel_blocks);
  }
  INFO("gzip");
  const std::string gz = gzip(text);
  CHECK(model_dump(load(gz, 2, 1000, 997)) == model_dump(load(gz, 1, 1u << 20)));
  return most_blocks;
}

}  // namespace

TEST_CASE("parallel parse: indented and one-per-line traces equal the sequential load",
          "[trace][parallel]") {
  for (const std::string indent : {"    ", "  ", ""}) {
    INFO("indent '" << indent << "'");
    const std::string text = generated_trace(1500, Style{indent, false});
    const tr::LoadResult sequential = load(text, 1, 1u << 20);
    REQUIRE_FALSE(sequential.error);
    REQUIRE(sequential.model.event_count() == 1500);
    // The generated trace exercises what the merge must get right.
    const auto& diag = sequential.model.diagnostics();
    CHECK(diag.count(tr::Warning::kNonObjectEvent) >= 5);
    CHECK(diag.count(tr::Warning::kEventWithoutPhase) >= 5);
    CHECK(diag.count(tr::Warning::kInvalidUtf8) >= 20);
    CHECK(diag.count(tr::Warning::kPrecisionFallback) > 50);
    CHECK(diag.count(tr::Warning::kUnknownPhase) > 0);
    CHECK(diag.count(tr::Warning::kNegativeDuration) > 0);
    CHECK(sequential.model.threads().size() > 15);
    // Nearly every block is parsed by a worker (1000-byte blocks: a few hundred).
    CHECK(check_same_as_sequential(text) >= 150);
  }
}

TEST_CASE("parallel parse: separators inside elements hand over to the sequential reader",
          "[trace][parallel]") {
  const std::string text = generated_trace(1500, Style{"    ", true});
  REQUIRE(text.find("{\"a\": 1},\n    {\"b\"") != std::string::npos);
  const std::size_t blocks = check_same_as_sequential(text);
  CHECK(blocks >= 1);
  // With one element per block the first fake separator is met in element 40: the blocks before
  // it were parsed in parallel; the sequential reader reads that element and the next, and the
  // blocks start again (36 times).
  const tr::LoadResult r = load(text, 2, 1);
  CHECK(r.parallel_blocks >= 1400);
  CHECK(r.parallel_blocks < 1500);
}

TEST_CASE("parallel parse: a trace on one line (as vLLM writes it)", "[trace][parallel]") {
  for (const bool fakes : {false, true}) {
    const std::string text = generated_trace(1500, Style{"", fakes, true});
    REQUIRE(text.find("},\n") == std::string::npos);
    CHECK(check_same_as_sequential(text) >= 150);
  }
}

TEST_CASE("parallel parse: errors and truncation late in the array", "[trace][parallel]") {
  const std::string text = generated_trace(400, Style{"    ", false});
  const std::size_t late = text.find("\"External id\": 300,");
  REQUIRE(late != std::string::npos);
  std::vector<std::string> broken = {
      text.substr(0, text.size() / 2),                                    // truncated mid-array
      text.substr(0, late),                                               // truncated in an event
      text.substr(0, text.find("\n  ],")) + ",\n    ",                    // ends after a comma
      std::string(text).replace(late, 13, "\"External id\" 500"),         // missing colon
      std::string(text).replace(late, 13, "\"External id\": tru"),        // bad literal
      std::string(text).replace(text.find("},\n    {", late), 2, "}\n"),  // missing comma
      std::string(text).replace(text.find("},\n    {", late), 3, "},]"),  // comma before `]`
      std::string(text).replace(late, 1, std::string(600, '[')),          // nesting too deep
      // A warning (invalid UTF-8) in the element before its error: counted once.
      std::string(text).replace(late, 19, "\"Ext\xff id\": 300, \"x\": tru,"),
  };
  for (const std::string& t : broken) {
    INFO(t.substr(t.size() > 200 ? t.size() - 200 : 0));
    const tr::LoadResult sequential = load(t, 1, 1u << 20);
    REQUIRE(sequential.error);
    CHECK(check_same_as_sequential(t) >= 1);
  }
}

TEST_CASE("parallel parse: a corrupt gzip gives one error, whichever reader and read-ahead",
          "[trace][parallel]") {
  // The container's error (CRC, length, corrupt or truncated deflate data) wins over the JSON
  // error it may have caused, and is always known: the gzip stream is read to its end once the
  // JSON text ended or failed. It once depended on how far the reader had read ahead (the
  // parallel reader reported the CRC, the sequential one the JSON error at the same byte).
  const std::string text = generated_trace(400, Style{"    ", false});
  const std::size_t late = text.find("\"External id\": 300,");
  REQUIRE(late != std::string::npos);
  const std::string bad_json = std::string(text).replace(late, 13, "\"External id\" 500");
  const auto with_bad_crc = [](std::string gz) {
    gz[gz.size() - 8] = static_cast<char>(gz[gz.size() - 8] ^ 0x55);
    return gz;
  };
  const auto with_bad_length = [](std::string gz) {
    gz[gz.size() - 2] = static_cast<char>(gz[gz.size() - 2] ^ 0x01);
    return gz;
  };
  struct Case {
    const char* name;
    std::string bytes;
    const char* message;  // what the error says, whatever the reader
  };
  std::string cut = gzip(text);
  cut.resize(cut.size() / 2);
  std::string flipped = gzip(text);
  for (std::size_t i = flipped.size() * 3 / 4; i < flipped.size() * 3 / 4 + 16; ++i) {
    flipped[i] = static_cast<char>(flipped[i] ^ 0xa5);
  }
  const std::vector<Case> cases = {
      {"bad JSON, bad CRC", with_bad_crc(gzip(bad_json)), "incorrect data check"},
      {"good JSON, bad CRC", with_bad_crc(gzip(text)), "incorrect data check"},
      {"bad JSON, bad length", with_bad_length(gzip(bad_json)), "incorrect"},  // zlib: length
      {"truncated stream", cut, "truncated gzip stream"},
      {"corrupt deflate data", flipped, "gzip"},
      {"bad JSON, good gzip", gzip(bad_json), "Missing a colon"},
  };
  std::size_t compared = 0;
  for (const Case& c : cases) {
    INFO(c.name);
    tr::LoadOptions sequential;
    sequential.parse_threads = 1;
    const tr::LoadResult expected = tr::load_trace_bytes(c.bytes, sequential);
    REQUIRE(expected.error);
    CHECK_THAT(expected.error->message, Catch::Contains(c.message));
    const std::string dump = model_dump(expected);
    for (const unsigned threads : {1u, 2u, 3u}) {
      for (const std::size_t block : {std::size_t{1000}, std::size_t{4096}, std::size_t{1} << 20}) {
        for (const bool read_ahead : {true, false}) {
          tr::LoadOptions options;
          options.parse_threads = threads;
          options.parse_block_bytes = block;
          options.chunk_bytes = read_ahead ? 997 : 7;
          options.read_ahead = read_ahead;
          CHECK(model_dump(tr::load_trace_bytes(c.bytes, options)) == dump);
          ++compared;
        }
      }
    }
  }
  CHECK(compared == 6 * 18);
  // Both problems are named: the container's first, then where the JSON text already failed.
  tr::LoadOptions one;
  one.parse_threads = 1;
  const auto both = tr::load_trace_bytes(with_bad_crc(gzip(bad_json)), one);
  REQUIRE(both.error);
  const std::size_t colon = late + std::string("\"External id\" ").size();  // where `:` is missing
  CHECK(both.error->offset == colon);
  CHECK_THAT(both.error->message,
             Catch::Contains("the JSON text inflated before it is invalid at byte " +
                             std::to_string(colon)));
}

TEST_CASE("parallel parse: small and odd arrays", "[trace][parallel]") {
  const std::string ev = R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";
  for (const std::string& text : std::vector<std::string>{
           "{\"traceEvents\":[]}",
           "{\"traceEvents\":[\n" + ev + "\n]}",
           "[\n" + ev + ",\n" + ev + ",\n" + ev + "\n]",  // a top-level array
           "{\"traceEvents\":[" + ev + "," + ev + "]}",   // one line: read sequentially
           "{\"traceEvents\":[\n" + ev + ",\n" + ev + ",\n]}",
           "{\"traceEvents\":[\n" + ev + ",\n" + ev + "\n] \"x\": 1}",
           "{\"traceEvents\":[\n42,\n" + ev + ",\n" + ev + "\n]}",
       }) {
    INFO(text);
    check_same_as_sequential(text);
  }
}

TEST_CASE("parallel parse: the bundled Kineto trace", "[trace][parallel]") {
  const fs::path trace =
      loupe::test::bundled_data_dir() / "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
  tr::LoadOptions options;
  options.parse_threads = 1;
  const tr::LoadResult sequential = tr::load_trace(trace, options);
  REQUIRE_FALSE(sequential.error);
  REQUIRE(sequential.model.event_count() > 15000);
  const std::string expected = model_dump(sequential);
  for (const unsigned threads : {2u, 4u}) {
    options.parse_threads = threads;
    options.parse_block_bytes = 128u << 10;
    const tr::LoadResult parallel = tr::load_trace(trace, options);
    CHECK(parallel.parallel_blocks >= 40);
    CHECK(model_dump(parallel) == expected);
  }
}

TEST_CASE("parallel parse: every trace of the reference pack", "[trace][parallel][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  std::size_t traces = 0;
  std::size_t parallel_loads = 0;
  for (const auto& entry : fs::recursive_directory_iterator(shared / "data/traces")) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_regular_file() || !(name.ends_with(".json") || name.ends_with(".json.gz"))) {
      continue;
    }
    INFO(entry.path().string());
    ++traces;
    tr::LoadOptions options;
    options.parse_threads = 1;
    const std::string expected = model_dump(tr::load_trace(entry.path(), options));
    options.parse_threads = 2;
    options.parse_block_bytes = std::size_t{1} << 20;  // several blocks for all but the smallest
    const tr::LoadResult parallel = tr::load_trace(entry.path(), options);
    parallel_loads += parallel.parallel_blocks > 1 ? 1 : 0;
    CHECK(model_dump(parallel) == expected);
  }
  CHECK(traces >= 20);
  CHECK(parallel_loads >= 15);
}
