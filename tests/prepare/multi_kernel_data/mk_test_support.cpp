#include "mk_test_support.hpp"

#include <rapidjson/document.h>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loupe/core/prepare/multi_kernel_data.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/json_reader.hpp"

namespace loupe::test::mk {

namespace trace = loupe::core::trace;
namespace prepare = loupe::core::prepare;

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Produced produce(const std::filesystem::path& path) {
  trace::LoadResult loaded = trace::load_trace(path);
  if (loaded.error) throw std::runtime_error("load failed: " + loaded.error->describe());
  const trace::EventTree tree = trace::EventTree::build(loaded.model);
  prepare::MultiKernelOptions options;
  options.integer_times = prepare::gpu_times_are_integers(loaded.model);
  Produced p;
  p.data = prepare::build_multi_kernel_data(loaded.model, options);
  p.data_text = prepare::multi_kernel_data_text(p.data);
  p.has_category = prepare::has_multi_kernel_events(p.data);
  p.utilization = loupe::dump_python_json(prepare::gpu_utilization_from_trace(loaded.model, tree));
  return p;
}

namespace {

// Minimal re-encoding of a parsed manifest member as Json (numbers keep int/float kind).
loupe::Json to_json(const rapidjson::Value& v) {
  if (v.IsNull()) return nullptr;
  if (v.IsBool()) return v.GetBool();
  if (v.IsInt64()) return v.GetInt64();
  if (v.IsNumber()) return v.GetDouble();
  if (v.IsString()) return std::string(v.GetString(), v.GetStringLength());
  if (v.IsArray()) {
    loupe::Json out = loupe::Json::array();
    for (const auto& e : v.GetArray()) out.push_back(to_json(e));
    return out;
  }
  loupe::Json out = loupe::Json::object();
  for (const auto& m : v.GetObject()) {
    out[std::string(m.name.GetString(), m.name.GetStringLength())] = to_json(m.value);
  }
  return out;
}

rapidjson::Document parse(const std::filesystem::path& path) {
  rapidjson::Document doc;
  const std::string text = read_file(path);
  doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseNanAndInfFlag>(text.c_str());
  if (doc.HasParseError()) throw std::runtime_error("bad JSON in " + path.string());
  return doc;
}

}  // namespace

std::string manifest_utilization(const std::filesystem::path& manifest) {
  const rapidjson::Document doc = parse(manifest);
  const auto it = doc.FindMember("gpu_utilization");
  if (it == doc.MemberEnd()) return "";
  return loupe::dump_python_json(to_json(it->value));
}

bool manifest_has_multi_kernel(const std::filesystem::path& manifest) {
  const rapidjson::Document doc = parse(manifest);
  const auto it = doc.FindMember("categories");
  if (it == doc.MemberEnd()) return false;
  for (const auto& c : it->value.GetArray()) {
    const auto n = c.FindMember("name");
    if (n != c.MemberEnd() && std::string_view(n->value.GetString()) == "multi_kernel") return true;
  }
  return false;
}

}  // namespace loupe::test::mk
