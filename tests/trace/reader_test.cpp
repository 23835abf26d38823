// Streaming reader: key order, gzip (single and concatenated members), number forms, escapes,
// string pids, metadata capture, and exact nanosecond timestamps.
#include <catch2/catch.hpp>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "trace_text.hpp"

namespace tr = loupe::core::trace;
using loupe::test::trace::gzip;
using loupe::test::trace::small_trace;
using loupe::test::trace::wrap_events;

namespace {

tr::LoadResult load_ok(const std::string& text) {
  tr::LoadResult r = tr::load_trace_bytes(text);
  INFO((r.error ? r.error->describe() : std::string()));
  REQUIRE_FALSE(r.error);
  return r;
}

}  // namespace

TEST_CASE("a small trace loads with exact fields, links its kernel", "[trace][reader]") {
  const auto r = load_ok(small_trace());
  const auto& m = r.model;
  REQUIRE(m.event_count() == 5);
  CHECK(m.event(0).category == tr::Category::kCpuOp);
  CHECK(m.event(0).dur_ns == 50000);
  CHECK(m.event(2).ts_ns == 60000);
  CHECK(m.detail(1)->correlation == 1);
  CHECK(m.detail(3)->flow_id == 1);
  CHECK(m.arg_text(2, "stream") == std::optional<std::string>("7"));
  CHECK(*m.trace_metadata_value("traceName") == "\"t\"");
  CHECK(r.json_bytes == small_trace().size());
  const auto tree = tr::EventTree::build(m);
  CHECK(tree.parent(2) == 1);
  CHECK(tree.parent(1) == 0);
  CHECK(tree.stats().gpu_linked == 1);
}

TEST_CASE("traceEvents first, last or in the middle; metadata captured either side",
          "[trace][reader]") {
  const std::string ev = R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";
  for (const std::string& text :
       {"{\"traceEvents\":[" + ev + "],\"a\":{\"x\":[1,2]},\"b\":null}",
        "{\"a\":{\"x\":[1,2]},\"b\":null,\"traceEvents\":[" + ev + "]}",
        "{\"a\":{\"x\":[1,2]},\"traceEvents\":[" + ev + "],\"b\":null}"}) {
    const auto r = load_ok(text);
    CHECK(r.model.event_count() == 1);
    CHECK(*r.model.trace_metadata_value("a") == "{\"x\":[1,2]}");
    CHECK(*r.model.trace_metadata_value("b") == "null");
  }
}

TEST_CASE("a top-level array is accepted as the event list", "[trace][reader]") {
  const auto r =
      load_ok(R"([{"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":5,"dur":1}])");
  CHECK(r.model.event_count() == 1);
}

TEST_CASE("gzip is detected by magic bytes, concatenated members are joined", "[trace][reader]") {
  const std::string text = small_trace();
  const auto one = load_ok(gzip(text));
  CHECK(one.gzip);
  CHECK(one.model.event_count() == 5);
  const std::size_t half = text.size() / 2;
  const auto two = load_ok(gzip(text.substr(0, half)) + gzip(text.substr(half)));
  CHECK(two.model.event_count() == 5);
  CHECK(two.json_bytes == text.size());
}

TEST_CASE("gzip inflates the same through tiny output chunks and across members",
          "[trace][reader]") {
  // 7-byte chunks make the inflater (ISA-L or zlib, gzip_inflater.hpp) stop on a full output
  // buffer at every step, inside headers, blocks and trailers of both members.
  const std::string text = small_trace();
  const std::size_t third = text.size() / 3;
  tr::LoadOptions options;
  options.chunk_bytes = 7;
  const auto r =
      tr::load_trace_bytes(gzip(text.substr(0, third)) + gzip(text.substr(third)), options);
  INFO((r.error ? r.error->describe() : std::string()));
  REQUIRE_FALSE(r.error);
  CHECK(r.json_bytes == text.size());
  CHECK(r.model.event_count() == 5);
  CHECK(r.model.name(0) == load_ok(text).model.name(0));
}

TEST_CASE("bytes after the last gzip member are ignored with a counted warning",
          "[trace][reader]") {
  const auto r = load_ok(gzip(small_trace()) + "garbage");
  CHECK(r.model.event_count() == 5);
  CHECK(r.model.diagnostics().count(tr::Warning::kTrailingGzipData) == 1);
}

TEST_CASE("numbers: ints, 3 decimals, exponent and 4 decimals fall back exactly",
          "[trace][reader]") {
  const auto r = load_ok(wrap_events(
      R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1419247332657.969,"dur":4809.347},)"
      R"({"ph":"X","cat":"cpu_op","name":"b","pid":1,"tid":1,"ts":1.5e3,"dur":0.0001},)"
      R"({"ph":"X","cat":"cpu_op","name":"c","pid":-1,"tid":"x","ts":-0.0,"dur":0})"));
  const auto& m = r.model;
  CHECK(m.event(0).ts_ns == 1419247332657969);
  CHECK(m.event(0).dur_ns == 4809347);
  CHECK(m.ts_us(0) == 1419247332657.969);
  CHECK(m.event(1).ts_ns == 1500000);
  CHECK(m.event(1).dur_ns == 0);
  CHECK(m.dur_us(1) == 0.0001);  // the exact double is kept for TraceLens parity
  CHECK(m.diagnostics().count(tr::Warning::kPrecisionFallback) == 2);
  CHECK(m.event(2).ts_ns == 0);
  const auto& key = m.threads()[m.event(2).thread].key;
  CHECK(key.pid == tr::IdValue{false, -1});
  CHECK(key.tid.is_string);
  CHECK(m.id_text(key.tid) == "x");
}

TEST_CASE("escaped quotes and \\u escapes in names; CRLF and no whitespace", "[trace][reader]") {
  const auto r = load_ok(
      "{\r\n\"traceEvents\":[{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"a\\\"b\\u00e9\\n\","
      "\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":1,\"args\":{\"k\":\"q\\\"\"}}]\r\n}\r\n");
  CHECK(r.model.name(0) == "a\"b\xc3\xa9\n");
  CHECK(r.model.arg_text(0, "k") == std::optional<std::string>("\"q\\\"\""));
}

TEST_CASE("events without args or cat are kept", "[trace][reader]") {
  const auto r = load_ok(wrap_events(
      R"({"ph":"i","name":"x","pid":"","tid":"","ts":3,"s":"g"},{"ph":"M","name":"process_name","pid":5,"tid":0,"args":{"name":"python3"}})"));
  CHECK(r.model.event_count() == 2);
  CHECK(r.model.event(0).category == tr::Category::kNone);
  CHECK_FALSE(r.model.detail(0).has_value());
  CHECK(r.model.process_name(r.model.event(1).thread) == "python3");
}
