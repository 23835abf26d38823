#include "trace_text.hpp"

#include <zlib.h>

#include <stdexcept>

namespace loupe::test::trace {

std::string small_trace() {
  return wrap_events(
      R"({"ph":"X","cat":"cpu_op","name":"aten::relu","pid":100,"tid":100,"ts":0,"dur":50,"args":{"External id":1}},)"
      R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":100,"tid":100,"ts":10,"dur":5,"args":{"correlation":1,"External id":1}},)"
      R"({"ph":"X","cat":"kernel","name":"relu_kernel","pid":0,"tid":7,"ts":60,"dur":20,"args":{"correlation":1,"stream":7,"device":0}},)"
      R"({"ph":"s","id":1,"pid":100,"tid":100,"ts":10,"cat":"ac2g","name":"ac2g"},)"
      R"({"ph":"f","id":1,"pid":0,"tid":7,"ts":60,"cat":"ac2g","name":"ac2g","bp":"e"})");
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
