// The fast path of the reader: the event-boundary splitter, the strict value tokenizer, and
// whole loads with tiny chunks (every event split across block boundaries) that must give the
// same model, warnings and errors as one big block.
#include <catch2/catch.hpp>

#include <string>

#include "../../core/src/trace/value_extent.hpp"
#include "../../core/src/trace/value_tokenizer.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "trace_text.hpp"

namespace tr = loupe::core::trace;
using loupe::test::trace::gzip;
using loupe::test::trace::model_dump;
using loupe::test::trace::small_trace;
using loupe::test::trace::wrap_events;

namespace {

std::size_t end_of(const std::string& text, std::size_t pos = 0) {
  return tr::find_value_end(text, pos);
}

tr::TokenizeStatus tokenize(const std::string& text, tr::ValueTokenizer& tok) {
  return tok.tokenize(text.data(), text.data() + text.size());
}

}  // namespace

TEST_CASE("splitter: brackets, quotes and escapes inside strings", "[trace][splitter]") {
  CHECK(end_of(R"({"a":"}"} x)") == 9);
  CHECK(end_of(R"({"a":"\"}"} x)") == 11);
  CHECK(end_of(R"({"a":"\\"} x)") == 10);
  CHECK(end_of(R"({"a":[1,{"b":"]"}],"c":{}}, {)") == 26);
  CHECK(end_of(R"("str\"ing" ,)") == 10);
  CHECK(end_of("123.5,", 0) == 5);
  CHECK(end_of("[1, 2] ", 0) == 6);
  CHECK(end_of("null]", 0) == 4);
  CHECK(end_of("x {\"a\":1}", 2) == 9);
}

TEST_CASE("splitter: truncated values are incomplete", "[trace][splitter]") {
  CHECK(end_of(R"({"a":"}")") == tr::kValueIncomplete);
  CHECK(end_of(R"({"a":"x\")") == tr::kValueIncomplete);
  CHECK(end_of(R"({"a":[1,2])") == tr::kValueIncomplete);
  CHECK(end_of("12") == tr::kValueIncomplete);  // the number may go on
  CHECK(end_of("") == tr::kValueIncomplete);
}

TEST_CASE("tokenizer: tokens, unescaped strings and RapidJSON's offsets", "[trace][splitter]") {
  tr::ValueTokenizer tok;
  const std::string text = R"({"k" : "a\"b\u00e9\n", "n":[1.5,-0,true,null],"e":{}} ,)";
  REQUIRE(tokenize(text, tok) == tr::TokenizeStatus::kOk);
  CHECK(tok.value_end() - text.data() == static_cast<std::ptrdiff_t>(text.find(" ,")));
  const auto& t = tok.tokens();
  REQUIRE(t.size() == 14);
  CHECK(t[0].kind == tr::TokenKind::kStartObject);
  CHECK(t[1].kind == tr::TokenKind::kKey);
  CHECK(std::string(t[1].text, t[1].len) == "k");
  CHECK(t[1].after - text.data() == 4);  // just after the key's closing quote
  CHECK(t[2].kind == tr::TokenKind::kString);
  CHECK(std::string(t[2].text, t[2].len) == "a\"b\xc3\xa9\n");
  CHECK(std::string(t[5].text, t[5].len) == "1.5");
  CHECK(std::string(t[6].text, t[6].len) == "-0");
  CHECK(t[7].kind == tr::TokenKind::kTrue);
  CHECK(t[8].kind == tr::TokenKind::kNull);
  CHECK(t[9].kind == tr::TokenKind::kEndArray);
  CHECK(t[13].kind == tr::TokenKind::kEndObject);
}

TEST_CASE("tokenizer: rare forms and errors are left to RapidJSON", "[trace][splitter]") {
  tr::ValueTokenizer tok;
  for (const std::string text :
       {"{\"ts\":NaN}", "{\"ts\":1e3}", "{\"a\":\"\\ud83d\\ude00\"}", "{\"a\":\"x\ty\"}",
        "{\"a\":1,}", "[1,]", "{\"a\" 1}", "{\"a\":01}", "{\"a\":1.}", "{\"a\":tru}",
        "{\"a\":\"\\q\"}", "{1:2}"}) {
    INFO(text);
    CHECK(tokenize(text, tok) == tr::TokenizeStatus::kInvalid);
  }
  for (const std::string text : {"{\"a\":1", "{\"a\":\"xy", "{\"a\":1.", "[tr", "{\"a\":\"\\u00"}) {
    INFO(text);
    CHECK(tokenize(text, tok) == tr::TokenizeStatus::kIncomplete);
  }
}

TEST_CASE("loads split into tiny chunks equal one-block loads", "[trace][splitter]") {
  const std::string ev =
      R"({"ph":"X","cat":"cpu_op","name":"a[\"}","pid":1,"tid":1,"ts":1,"dur":2})";
  const std::vector<std::string> texts = {
      small_trace(),
      "{\"a\":[1,{\"b\":\"]\"}],\"traceEvents\":[" + ev + " , " + ev +
          "],\"z\":{\"y\":null},\"w\":\"\\u00e9\"}\n",
      "[" + ev + "," + ev + "]  ",
      wrap_events(
          R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":NaN,"dur":1e3},)"
          R"(42,[1,[2]],"s",null,{"ph":"i","name":"\ud83d\ude00","args":{"k":[{"x":"\/"}]}})"),
      wrap_events(ev) + " x",                    // garbage after the value
      wrap_events(ev + "," + ev).substr(0, 60),  // truncated inside an event
      wrap_events(ev + ","),                     // trailing comma
      wrap_events(ev + " " + ev),                // missing comma
      "{\"traceEvents\":[]}",
      "{\"traceEvents\":[" + ev + "],}",
      "{\"traceEvents\":[" + ev + "] \"a\":1}",
      wrap_events(R"({"ph":"X","name":"a	b"})"),  // raw tab: error with its offset
  };
  for (const std::string& text : texts) {
    INFO(text);
    const std::string whole = model_dump(tr::load_trace_bytes(text));
    for (const std::size_t chunk : {1u, 2u, 3u, 7u, 16u}) {
      tr::LoadOptions options;
      options.chunk_bytes = chunk;
      INFO(chunk);
      CHECK(model_dump(tr::load_trace_bytes(text, options)) == whole);
      options.read_ahead = false;
      CHECK(model_dump(tr::load_trace_bytes(gzip(text), options)) == whole);
    }
  }
}

TEST_CASE("errors of the fast path name RapidJSON's offsets", "[trace][splitter]") {
  const std::string ev = R"({"ph":"X","cat":"cpu_op","name":"a","pid":1,"tid":1,"ts":1,"dur":2})";
  const std::string missing_comma = wrap_events(ev + " " + ev);
  const auto r = tr::load_trace_bytes(missing_comma);
  REQUIRE(r.error);
  CHECK(r.error->offset == missing_comma.find(ev, missing_comma.find(ev) + 1));
  CHECK_THAT(r.error->message, Catch::Contains("comma"));
  CHECK(r.model.event_count() == 1);

  const std::string trailing = wrap_events(ev + ",");
  const auto t = tr::load_trace_bytes(trailing);
  REQUIRE(t.error);
  CHECK(t.error->offset == trailing.rfind(']'));
}
