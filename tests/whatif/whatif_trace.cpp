#include "whatif_trace.hpp"

#include "inline_trace.hpp"

namespace loupe::test::whatif_trace {

using inline_trace::number;

TraceText& TraceText::host(const std::string& cat, const std::string& name, double ts, double dur) {
  events_ += R"({"ph":"X","cat":")" + cat + R"(","name":")" + name + R"(","pid":1,"tid":1,"ts":)" +
             number(ts) + R"(,"dur":)" + number(dur) + R"(,"args":{}},)";
  return *this;
}

TraceText& TraceText::launch(const std::string& kernel, double ts, double kernel_ts,
                             double kernel_dur, int stream, const std::string& launch_name,
                             const std::string& kernel_cat, double launch_dur) {
  const std::string id = std::to_string(next_id_++);
  const std::string s = std::to_string(stream);
  events_ += R"({"ph":"X","cat":"cuda_runtime","name":")" + launch_name +
             R"(","pid":1,"tid":1,"ts":)" + number(ts) + R"(,"dur":)" + number(launch_dur) +
             R"(,"args":{"correlation":)" + id + "}},";
  events_ += R"({"ph":"s","id":)" + id + R"(,"pid":1,"tid":1,"ts":)" + number(ts) +
             R"(,"cat":"ac2g","name":"ac2g"},)";
  events_ += R"({"ph":"f","id":)" + id + R"(,"pid":0,"tid":)" + s + R"(,"ts":)" +
             number(kernel_ts) + R"(,"cat":"ac2g","name":"ac2g","bp":"e"},)";
  events_ += R"({"ph":"X","cat":")" + kernel_cat + R"(","name":")" + kernel +
             R"(","pid":0,"tid":)" + s + R"(,"ts":)" + number(kernel_ts) + R"(,"dur":)" +
             number(kernel_dur) + R"(,"args":{"correlation":)" + id + R"(,"stream":)" + s + "}},";
  return *this;
}

TraceText& TraceText::orphan_kernel(const std::string& kernel, double ts, double dur, int stream) {
  const std::string s = std::to_string(stream);
  events_ += R"({"ph":"X","cat":"kernel","name":")" + kernel + R"(","pid":0,"tid":)" + s +
             R"(,"ts":)" + number(ts) + R"(,"dur":)" + number(dur) + R"(,"args":{"stream":)" + s +
             "}},";
  return *this;
}

std::string TraceText::document() const { return inline_trace::trace_document(events_); }

}  // namespace loupe::test::whatif_trace
