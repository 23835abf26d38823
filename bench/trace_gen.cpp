// loupe_trace_gen SOURCE OUT TARGET_MB: writes a large realistic trace by replicating
// SOURCE's events (all but the M metadata events) back to back, each copy shifted in time by
// the source's span and with its ids (flow id, correlation, External id, Sequence number,
// Python ids, ...) offset so copies never collide. OUT ending in .gz is written gzip.
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>
#include <zlib.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <string>

#include "loupe/core/trace/byte_source.hpp"

namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

std::string read_all(const std::string& path) {
  auto src = loupe::core::trace::open_byte_source(path);
  std::string text;
  for (auto chunk = src->next_chunk(); !chunk.empty(); chunk = src->next_chunk())
    text.append(chunk);
  return text;
}

std::int64_t to_ns(const rapidjson::Value& v) { return std::llround(v.GetDouble() * 1000.0); }

void write_time(Writer& w, std::int64_t ns) {
  char buf[48];
  const int n = std::snprintf(buf, sizeof(buf), "%lld.%03lld", static_cast<long long>(ns / 1000),
                              static_cast<long long>(ns % 1000));
  w.RawValue(buf, static_cast<std::size_t>(n), rapidjson::kNumberType);
}

bool is_id_key(const std::string& k) {
  return k == "correlation" || k == "External id" || k == "Sequence number" || k == "Python id" ||
         k == "Python parent id" || k == "Record function id" || k == "Ev Idx" ||
         k == "Fwd thread id";
}

void write_event(Writer& w, const rapidjson::Value& e, std::int64_t shift_ns,
                 std::int64_t id_shift) {
  w.StartObject();
  for (const auto& m : e.GetObject()) {
    const std::string key = m.name.GetString();
    w.Key(key.c_str(), static_cast<rapidjson::SizeType>(key.size()));
    if ((key == "ts" || key == "dur") && m.value.IsNumber()) {
      write_time(w, to_ns(m.value) + (key == "ts" ? shift_ns : 0));
    } else if (key == "id" && m.value.IsInt64()) {
      w.Int64(m.value.GetInt64() + id_shift);
    } else if (key == "args" && m.value.IsObject()) {
      w.StartObject();
      for (const auto& a : m.value.GetObject()) {
        const std::string ak = a.name.GetString();
        w.Key(ak.c_str(), static_cast<rapidjson::SizeType>(ak.size()));
        if (is_id_key(ak) && a.value.IsInt64() && ak != "Fwd thread id") {
          w.Int64(a.value.GetInt64() + id_shift);
        } else {
          a.value.Accept(w);
        }
      }
      w.EndObject();
    } else {
      m.value.Accept(w);
    }
  }
  w.EndObject();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: loupe_trace_gen SOURCE OUT[.gz] TARGET_MB\n";
    return 2;
  }
  const std::string out_path = argv[2];
  const double target = std::stod(argv[3]) * 1e6;
  const std::string text = read_all(argv[1]);
  rapidjson::Document doc;
  doc.Parse(text.c_str());
  if (doc.HasParseError() || !doc.IsObject() || !doc.HasMember("traceEvents")) {
    std::cerr << "cannot parse " << argv[1] << "\n";
    return 2;
  }
  const auto& events = doc["traceEvents"];
  std::int64_t lo = INT64_MAX, hi = INT64_MIN, max_id = 0;
  for (const auto& e : events.GetArray()) {
    if (e.HasMember("ts") && e["ts"].IsNumber()) {
      const std::int64_t ts = to_ns(e["ts"]);
      const std::int64_t end =
          ts + (e.HasMember("dur") && e["dur"].IsNumber() ? to_ns(e["dur"]) : 0);
      lo = std::min(lo, ts);
      hi = std::max(hi, end);
    }
    if (e.HasMember("id") && e["id"].IsInt64()) max_id = std::max(max_id, e["id"].GetInt64());
    if (e.HasMember("args") && e["args"].IsObject()) {
      for (const auto& a : e["args"].GetObject()) {
        if (is_id_key(a.name.GetString()) && a.value.IsInt64())
          max_id = std::max(max_id, a.value.GetInt64());
      }
    }
  }
  const std::int64_t span = hi - lo + 1000;
  const std::int64_t id_step = max_id + 1;
  const bool gz = out_path.ends_with(".gz");
  std::FILE* plain = gz ? nullptr : std::fopen(out_path.c_str(), "wb");
  gzFile zf = gz ? gzopen(out_path.c_str(), "wb6") : nullptr;
  if (plain == nullptr && zf == nullptr) {
    std::cerr << "cannot write " << out_path << "\n";
    return 2;
  }
  double written = 0;
  const auto emit = [&](const char* data, std::size_t n) {
    if (gz) {
      gzwrite(zf, data, static_cast<unsigned>(n));
    } else {
      std::fwrite(data, 1, n, plain);
    }
    written += static_cast<double>(n);
  };
  std::string head = "{\n  \"schemaVersion\": 1,\n  \"traceEvents\": [\n";
  emit(head.data(), head.size());
  bool first = true;
  std::size_t copies = 0, count = 0;
  rapidjson::StringBuffer buf;
  for (std::int64_t k = 0; written < target; ++k, ++copies) {
    for (const auto& e : events.GetArray()) {
      const bool meta =
          e.HasMember("ph") && e["ph"].IsString() && std::string(e["ph"].GetString()) == "M";
      if (meta && k > 0) continue;
      buf.Clear();
      Writer w(buf);
      write_event(w, e, k * span, k * id_step);
      if (!first) emit(",\n  ", 4);
      if (first) emit("  ", 2);
      first = false;
      emit(buf.GetString(), buf.GetSize());
      ++count;
    }
  }
  std::string tail = "\n  ],\n  \"traceName\": \"loupe_trace_gen\"";
  for (const auto& m : doc.GetObject()) {
    const std::string key = m.name.GetString();
    if (key == "traceEvents" || key == "schemaVersion" || key == "traceName") continue;
    rapidjson::StringBuffer vb;
    Writer vw(vb);
    m.value.Accept(vw);
    tail += ",\n  \"" + key + "\": " + std::string(vb.GetString(), vb.GetSize());
  }
  tail += "\n}\n";
  emit(tail.data(), tail.size());
  if (gz) gzclose(zf);
  if (plain != nullptr) std::fclose(plain);
  std::cout << "wrote " << out_path << ": " << copies << " copies, " << count << " events, "
            << written / 1e6 << " MB of JSON\n";
  return 0;
}
