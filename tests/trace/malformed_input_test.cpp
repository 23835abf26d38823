// Malformed inputs users report (docs/deviations.md, "Where both modes deliberately differ from
// TraceLens"): each either loads with a counted warning or fails with a LoadError naming the byte
// offset and the problem. Never a crash.
#include <catch2/catch.hpp>

#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "trace_text.hpp"

namespace tr = loupe::core::trace;
using loupe::test::trace::gzip;
using loupe::test::trace::small_trace;
using loupe::test::trace::wrap_events;

namespace {
const std::string kCpu = R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";
}

TEST_CASE("bare NaN / Infinity load with a counted warning, lowercase nan fails with offset",
          "[trace][malformed]") {
  const auto r = tr::load_trace_bytes(wrap_events(
      R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":NaN,"dur":Infinity},)" + kCpu));
  REQUIRE_FALSE(r.error);
  CHECK(r.model.event_count() == 2);
  CHECK(r.model.diagnostics().count(tr::Warning::kNonFiniteNumber) == 2);
  CHECK((r.model.event(0).flags & tr::kHasTs) == 0);

  const std::string text = wrap_events(R"({"ph":"X","ts":nan})");
  const auto bad = tr::load_trace_bytes(text);
  REQUIRE(bad.error);
  CHECK(bad.error->offset >= text.find("nan"));
  CHECK(bad.error->offset <= text.find("nan") + 3);
  CHECK_THAT(bad.error->message, Catch::Contains("nan"));
}

TEST_CASE("an unescaped control character fails naming its offset", "[trace][malformed]") {
  const std::string text = wrap_events(kCpu + ",{\"ph\":\"X\",\"name\":\"a\tb\"}");
  const auto r = tr::load_trace_bytes(text);
  REQUIRE(r.error);
  CHECK(r.error->offset == text.find('\t'));
  CHECK_THAT(r.error->message, Catch::Contains("control character 0x09"));
  CHECK(r.model.event_count() == 1);  // the complete event before it is kept
}

TEST_CASE("integers beyond int64 are counted and treated as absent", "[trace][malformed]") {
  const auto r = tr::load_trace_bytes(wrap_events(
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,"args":{"correlation":99999999999999999999}})"));
  REQUIRE_FALSE(r.error);
  CHECK(r.model.diagnostics().count(tr::Warning::kIntegerOutOfRange) == 1);
  CHECK(r.model.detail(0)->correlation == tr::kNoValue);
}

TEST_CASE("invalid UTF-8 in a name or an arg becomes U+FFFD with a counted warning",
          "[trace][malformed]") {
  const auto r =
      tr::load_trace_bytes(wrap_events("{\"ph\":\"X\",\"cat\":\"cpu_op\",\"name\":\"bad\xff\xfe\","
                                       "\"pid\":1,\"tid\":1,\"ts\":1,\"dur\":2,"
                                       "\"args\":{\"Input Dims\":\"[\xc3(]\"}}"));
  REQUIRE_FALSE(r.error);
  CHECK(r.model.diagnostics().count(tr::Warning::kInvalidUtf8) == 2);
  CHECK(r.model.name(0) == "bad\xEF\xBF\xBD\xEF\xBF\xBD");
}

TEST_CASE("truncated JSON keeps the complete events and names the end offset",
          "[trace][malformed]") {
  const std::string text = small_trace();
  const std::string cut = text.substr(0, text.find("\"cat\":\"ac2g\""));  // inside event 3
  const auto r = tr::load_trace_bytes(cut);
  REQUIRE(r.error);
  CHECK(r.error->offset == cut.size());
  CHECK_THAT(r.error->message, Catch::Contains("truncated"));
  CHECK(r.model.event_count() == 3);
}

TEST_CASE("truncated gzip is reported as such, with the events before it", "[trace][malformed]") {
  const std::string text = small_trace();
  std::string z = gzip(text);
  z.resize(z.size() - 20);
  const auto r = tr::load_trace_bytes(z);
  REQUIRE(r.error);
  CHECK_THAT(r.error->message, Catch::Contains("truncated gzip"));
  CHECK(r.model.event_count() < 5);
}

TEST_CASE("corrupt gzip data fails with a message", "[trace][malformed]") {
  std::string z = gzip(small_trace());
  for (std::size_t i = 12; i < 40 && i < z.size(); ++i) z[i] = static_cast<char>(z[i] ^ 0x5a);
  const auto r = tr::load_trace_bytes(z);
  REQUIRE(r.error);
  CHECK_THAT(r.error->message, Catch::Contains("gzip"));
}

TEST_CASE("events without ph and non-object elements load with counted warnings",
          "[trace][malformed]") {
  const auto r = tr::load_trace_bytes(wrap_events(
      R"({"cat":"cpu_op","name":"x","pid":1,"tid":1,"ts":1,"dur":1},42,[1,2],)" + kCpu));
  REQUIRE_FALSE(r.error);
  CHECK(r.model.event_count() == 4);  // UIDs still count every element
  CHECK(r.model.diagnostics().count(tr::Warning::kEventWithoutPhase) == 1);
  CHECK(r.model.diagnostics().count(tr::Warning::kNonObjectEvent) == 2);
  CHECK(r.model.name(3) == "a");
}

TEST_CASE("overlapping X events on one thread: dropped and counted by the bleed rule",
          "[trace][malformed]") {
  // B [10,50] alone on the stack; C [40,70] overlaps it by 10 us -> C dropped (spec 2.5 c).
  const auto r = tr::load_trace_bytes(
      wrap_events(R"({"ph":"X","cat":"cpu_op","name":"B","pid":1,"tid":1,"ts":10,"dur":40},)"
                  R"({"ph":"X","cat":"cpu_op","name":"C","pid":1,"tid":1,"ts":40,"dur":30},)"
                  R"({"ph":"X","cat":"cpu_op","name":"D","pid":1,"tid":1,"ts":45,"dur":2})"));
  REQUIRE_FALSE(r.error);
  const auto tree = tr::EventTree::build(r.model);
  CHECK(tree.dropped_by_bleed(1));
  CHECK(tree.parent(2) == 0);
  CHECK(tree.stats().dropped_by_bleed == 1);
}

TEST_CASE("dur overflowing the next sibling by < 1 us at depth >= 2 re-parents",
          "[trace][malformed]") {
  const auto r = tr::load_trace_bytes(
      wrap_events(R"({"ph":"X","cat":"cpu_op","name":"A","pid":1,"tid":1,"ts":0,"dur":100},)"
                  R"({"ph":"X","cat":"cpu_op","name":"B","pid":1,"tid":1,"ts":10,"dur":40.0},)"
                  R"({"ph":"X","cat":"cpu_op","name":"C","pid":1,"tid":1,"ts":49.5,"dur":10.5})"));
  REQUIRE_FALSE(r.error);
  const auto tree = tr::EventTree::build(r.model);
  CHECK(tree.parent(2) == 0);
  CHECK(tree.stats().reparented_by_bleed == 1);
}

TEST_CASE("missing flows leave GPU ops unlinked and counted", "[trace][malformed]") {
  // Launch with only an `s` flow; kernel with only an `f`; second launch without any flow.
  const auto r = tr::load_trace_bytes(wrap_events(
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":1,"dur":2,"args":{"correlation":7}},)"
      R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":5,"dur":1,"args":{"correlation":7}},)"
      R"({"ph":"s","cat":"ac2g","name":"ac2g","id":7,"pid":1,"tid":1,"ts":1},)"
      R"({"ph":"f","cat":"ac2g","name":"ac2g","pid":0,"tid":7,"ts":5})"));
  REQUIRE_FALSE(r.error);
  const auto tree = tr::EventTree::build(r.model);
  CHECK_FALSE(tree.linked(1));
  CHECK(tree.stats().gpu_ops == 1);
  CHECK(tree.stats().gpu_linked == 0);
  CHECK(tree.stats().flows_without_id == 1);
  CHECK(tree.stats().launches_without_gpu_op == 1);
}

TEST_CASE("garbage after the top-level value and missing traceEvents are errors",
          "[trace][malformed]") {
  const std::string text = small_trace() + " x";
  const auto r = tr::load_trace_bytes(text);
  REQUIRE(r.error);
  CHECK(r.error->offset == text.size() - 1);
  const auto none = tr::load_trace_bytes("{\"a\":1}");
  REQUIRE(none.error);
  CHECK_THAT(none.error->message, Catch::Contains("traceEvents"));
  const auto scalar = tr::load_trace_bytes("42");
  REQUIRE(scalar.error);
  const auto empty = tr::load_trace_bytes("");
  REQUIRE(empty.error);
}

TEST_CASE("arrays and objects nested past 512 levels fail with an offset, never a crash",
          "[trace][malformed][fuzz]") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const std::string& text :
       {std::string("{\"traceEvents\":[],\"x\":") + deep + "}",  // top-level metadata
        std::string("{\"traceEvents\":[") + deep + "]}",         // an event
        wrap_events(R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2,)"
                    R"("args":{"Input Dims":)" +
                    deep + "}}")}) {  // an argument
    const auto r = tr::load_trace_bytes(text);
    REQUIRE(r.error);
    CHECK_THAT(r.error->message, Catch::Contains("nest deeper than 512 levels"));
    CHECK(r.error->offset < 1000);
  }
  // 512 levels are fine.
  const std::string ok = std::string(500, '[') + std::string(500, ']');
  CHECK_FALSE(tr::load_trace_bytes(std::string("{\"traceEvents\":[],\"x\":") + ok + "}").error);
}

TEST_CASE("pid, tid and External id near INT64_MAX load (no signed overflow in hashing)",
          "[trace][malformed][fuzz]") {
  const auto r = tr::load_trace_bytes(wrap_events(
      R"({"ph":"X","cat":"cpu_op","name":"a","pid":9223372036854775807,"tid":9223372036854775806,)"
      R"("ts":1,"dur":5,"args":{"External id":9223372036854775807}},)"
      R"({"ph":"X","cat":"kernel","name":"k","pid":0,"tid":7,"ts":2,"dur":1,)"
      R"("args":{"External id":9223372036854775807,"stream":7,"device":0,"correlation":1}})"));
  REQUIRE_FALSE(r.error);
  CHECK(r.model.event_count() == 2);
  const auto tree = tr::EventTree::build(r.model, {});
  CHECK(tree.cpu_root_nodes().size() == 1);
}
