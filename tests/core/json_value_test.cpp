// The JSON writer must produce exactly what Python's json.dumps(obj, indent=2) produces.
#include <catch2/catch.hpp>

#include <cmath>

#include "loupe/json_value.hpp"

using loupe::dump_python_json;
using loupe::Json;

TEST_CASE("dump_python_json reproduces json.dumps(indent=2)", "[json]") {
  Json doc = Json::object();
  doc["category"] = "kernel_fusion";
  doc["count"] = 7;
  doc["score"] = 34.04;
  doc["whole"] = 2.0;
  doc["flag"] = true;
  doc["none"] = nullptr;
  doc["empty_list"] = Json::array();
  doc["empty_obj"] = Json::object();
  Json list = Json::array();
  list.push_back(1);
  list.push_back("two");
  doc["list"] = list;
  const std::string expected =
      "{\n"
      "  \"category\": \"kernel_fusion\",\n"
      "  \"count\": 7,\n"
      "  \"score\": 34.04,\n"
      "  \"whole\": 2.0,\n"
      "  \"flag\": true,\n"
      "  \"none\": null,\n"
      "  \"empty_list\": [],\n"
      "  \"empty_obj\": {},\n"
      "  \"list\": [\n"
      "    1,\n"
      "    \"two\"\n"
      "  ]\n"
      "}";
  CHECK(dump_python_json(doc) == expected);
}

TEST_CASE("json writer escapes like Python with ensure_ascii", "[json]") {
  CHECK(dump_python_json(Json("a\"b\\c\nd\te")) == R"("a\"b\\c\nd\te")");
  CHECK(dump_python_json(Json("\x01")) == R"("\u0001")");
  CHECK(dump_python_json(Json("Kernel Time (\xC2\xB5s)")) == R"j("Kernel Time (\u00b5s)")j");
  CHECK(dump_python_json(Json("\xF0\x9F\x94\xB4")) == R"("\ud83d\udd34")");
  CHECK(dump_python_json(Json("\xC2\xB5"), 2, false) == "\"\xC2\xB5\"");
}

TEST_CASE("json writer spells special floats like Python", "[json]") {
  CHECK(dump_python_json(Json(std::nan(""))) == "NaN");
  CHECK(dump_python_json(Json(HUGE_VAL)) == "Infinity");
  CHECK(dump_python_json(Json(-HUGE_VAL)) == "-Infinity");
  CHECK(dump_python_json(Json(1e-05)) == "1e-05");
}

TEST_CASE("one-line form uses Python's default separators", "[json]") {
  Json doc = Json::object();
  doc["a"] = 1;
  Json l = Json::array();
  l.push_back(1.5);
  l.push_back(nullptr);
  doc["b"] = l;
  CHECK(dump_python_json(doc, -1) == R"({"a": 1, "b": [1.5, null]})");
}

TEST_CASE("object keys keep insertion order and assignment replaces in place", "[json]") {
  Json doc = Json::object();
  doc["z"] = 1;
  doc["a"] = 2;
  doc["z"] = 3;
  CHECK(dump_python_json(doc, -1) == R"({"z": 3, "a": 2})");
  REQUIRE(doc.find("a") != nullptr);
  CHECK(doc.find("a")->as_int() == 2);
  CHECK(doc.find("missing") == nullptr);
}
