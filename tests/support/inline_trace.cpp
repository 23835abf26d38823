#include "inline_trace.hpp"

#include <charconv>

namespace loupe::test::inline_trace {

std::string number(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  std::string out(text, result.ptr);
  if (out.find_first_of(".e") == std::string::npos) out += ".0";
  return out;
}

std::string cpu_op(const std::string& name, double ts, double dur, const std::string& args) {
  return R"({"ph":"X","cat":"cpu_op","name":")" + name + R"(","pid":1,"tid":1,"ts":)" + number(ts) +
         R"(,"dur":)" + number(dur) + R"(,"args":{)" + args + "}},";
}

std::string launch(const std::string& kernel, int id, double ts, double kernel_ts,
                   double kernel_dur) {
  const std::string sid = std::to_string(id);
  return R"({"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":)" +
         number(ts) + R"(,"dur":2.0,"args":{"correlation":)" + sid + "}}," + R"({"ph":"s","id":)" +
         sid + R"(,"pid":1,"tid":1,"ts":)" + number(ts) + R"(,"cat":"ac2g","name":"ac2g"},)" +
         R"({"ph":"f","id":)" + sid + R"(,"pid":0,"tid":7,"ts":)" + number(kernel_ts) +
         R"(,"cat":"ac2g","name":"ac2g","bp":"e"},)" + R"({"ph":"X","cat":"kernel","name":")" +
         kernel + R"(","pid":0,"tid":7,"ts":)" + number(kernel_ts) + R"(,"dur":)" +
         number(kernel_dur) + R"(,"args":{"correlation":)" + sid + R"(,"stream":7}},)";
}

std::string op_with_kernel(const std::string& op, const std::string& kernel, int id, double ts,
                           double kernel_dur, const std::string& args) {
  const std::string external = R"("External id":)" + std::to_string(id);
  return cpu_op(op, ts, 8, args.empty() ? external : external + "," + args) +
         launch(kernel, id, ts + 1, ts + 1000, kernel_dur);
}

std::string trace_document(std::string events) {
  if (!events.empty() && events.back() == ',') events.pop_back();
  return R"({"traceEvents":[)" + events + "]}";
}

}  // namespace loupe::test::inline_trace
