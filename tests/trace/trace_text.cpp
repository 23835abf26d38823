#include "trace_text.hpp"

#include <zlib.h>

#include <stdexcept>
#include <string>

namespace loupe::test::trace {

std::string small_trace() {
  return wrap_events(
      R"({"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":0,"dur":50,"args":{"External id":1}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":10,"dur":5,"args":{"correlation":1,"External id":1}},)"
      R"({"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":60,"dur":20,"args":{"correlation":1,"stream":7,"device":0}},)"
      R"({"ph":"s","id":1,"pid":100,"tid":100,"ts":10,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":1,"pid":0,"tid":7,"ts":60,"cat":"ac2g","name":"ac2g","bp":"e"})");
}

std::string model_dump(const loupe::core::trace::LoadResult& r) {
  namespace tr = loupe::core::trace;
  std::string out;
  const auto& m = r.model;
  for (tr::Uid u = 0; u < m.event_count(); ++u) {
    const auto& e = m.event(u);
    out += std::to_string(e.ts_ns) + " " + std::to_string(e.dur_ns) + " " + std::string(m.name(u)) +
           " " + std::string(m.str(e.cat)) + " " + std::to_string(e.flags) + " " +
           std::to_string(static_cast<int>(e.phase)) + " " +
           std::to_string(static_cast<int>(e.category)) + " " + std::to_string(e.thread) + " " +
           std::to_string(e.name) + "/" + std::to_string(e.cat);
    if ((e.flags & (tr::kTsFallback | tr::kDurFallback)) != 0) {
      out += " us " + std::to_string(m.ts_us(u)) + "," + std::to_string(m.dur_us(u));
    }
    if (const auto d = m.detail(u)) {
      out += " ids " + std::to_string(d->correlation) + "," + std::to_string(d->external_id) + "," +
             std::to_string(d->sequence) + "," + std::to_string(d->flow_id);
    }
    for (const auto& p : m.args(u)) {
      out += " " + std::to_string(p.key) + ":" + std::string(m.str(p.key)) + "=" +
             std::to_string(p.value) + ":" + m.arg_value_text(p);
    }
    out += "\n";
  }
  for (tr::StringId id = 0; id < m.strings().size(); ++id) {
    out += "str " + std::to_string(id) + " " + std::string(m.strings().view(id)) + "\n";
  }
  for (const auto& t : m.threads()) {
    out += "thread " + m.id_text(t.key.pid) + "/" + std::to_string(t.key.pid.is_string) + " " +
           m.id_text(t.key.tid) + "/" + std::to_string(t.key.tid.is_string) + " " +
           std::to_string(t.process_name) + " " + std::to_string(t.thread_name) + " " +
           std::to_string(t.process_labels) + " " + std::to_string(t.process_sort_index) + " " +
           std::to_string(t.thread_sort_index) + "\n";
  }
  for (int c = 0; c < tr::kCategoryCount; ++c) {
    out += std::to_string(m.events_in_category(static_cast<tr::Category>(c))) + " ";
  }
  out += "\n";
  for (tr::StringId id = 0; id < m.strings().size(); ++id) {
    if (const auto n = m.events_with_cat_string(m.strings().view(id)); n > 0) {
      out += "cat " + std::string(m.strings().view(id)) + " " + std::to_string(n) + "\n";
    }
  }
  for (const auto& [k, v] : m.trace_metadata()) out += k + ":" + v + "\n";
  const auto& diag = m.diagnostics();
  for (int w = 0; w < static_cast<int>(tr::Warning::kCount); ++w) {
    out += "warnings " + std::to_string(w) + " " + std::to_string(diag.warnings[w]) + "\n";
  }
  for (std::size_t i = 0; i < diag.samples.size(); ++i) {
    out += std::to_string(static_cast<int>(diag.sample_kinds.at(i))) + " " + diag.samples[i] + "\n";
  }
  if (r.error) out += "error " + r.error->describe() + "\n";
  // (After an error the bytes read so far depend on how far ahead the reader was.)
  if (!r.error) out += "json bytes " + std::to_string(r.json_bytes) + "\n";
  return out;
}

std::string wrap_events(const std::string& events) {
  return "{\"schemaVersion\": 1, \"traceEvents\": [" + events + "], \"traceName\": \"t\"}";
}

std::string gzip(const std::string& data) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out(deflateBound(&z, static_cast<uLong>(data.size())) + 32, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

}  // namespace loupe::test::trace
