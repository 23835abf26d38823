// Tree parity on the spec §5.9 cases (t01-t17): every node TraceLens reported (parent,
// ordered children, ordered gpu_events, tree flag, CPU-root flag, nn.Module stack,
// non_gpu_path, fwd/bwd links), the CPU-root list, the linking key, gpu_only, and the GPU
// timeline (with and without a 10 us micro-idle threshold), in TraceLens-compatible time.
#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cli_runner.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/gpu_event_index.hpp"
#include "loupe/core/trace/gpu_timeline.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;
namespace tr = loupe::core::trace;

namespace {

fs::path cases_dir() { return loupe::test::bundled_data_dir() / "trace" / "testcases"; }

std::vector<tr::Uid> uids(const rapidjson::Value& v) {
  std::vector<tr::Uid> out;
  for (const auto& x : v.GetArray()) out.push_back(static_cast<tr::Uid>(x.GetUint()));
  return out;
}

tr::LoadResult load(const fs::path& p) {
  tr::LoadResult r = tr::load_trace(p);
  REQUIRE_FALSE(r.error);
  return r;
}

std::size_t check_mode(const tr::TraceModel& model, const rapidjson::Value& exp, bool python,
                       const std::string& name) {
  tr::TreeOptions opt;
  opt.add_python_func = python;
  opt.time_mode = tr::TimeMode::kTraceLensCompat;
  const tr::EventTree tree = tr::EventTree::build(model, opt);
  INFO(name << " add_python_func=" << python);
  CHECK((tree.linking_key() == tr::LinkingKey::kCorrelation ? "correlation" : "External id") ==
        std::string(exp["linking_key"].GetString()));
  CHECK(tree.gpu_only() == exp["gpu_only"].GetBool());
  CHECK(tree.cpu_root_nodes() == uids(exp["cpu_root_nodes"]));
  const tr::GpuEventIndex gpu_index(tree);
  std::size_t checked = 0;
  for (const auto& m : exp["nodes"].GetObject()) {
    const auto uid = static_cast<tr::Uid>(std::stoul(m.name.GetString()));
    const auto& n = m.value;
    INFO("node " << uid << " " << n["name"].GetString());
    CHECK(model.name(uid) == n["name"].GetString());
    CHECK(tree.parent(uid) == (n.HasMember("parent") ? n["parent"].GetUint() : tr::kNoUid));
    const auto kids = tree.children(uid);
    CHECK(std::vector<tr::Uid>(kids.begin(), kids.end()) ==
          (n.HasMember("children") ? uids(n["children"]) : std::vector<tr::Uid>{}));
    CHECK(tree.gpu_events(uid) ==
          (n.HasMember("gpu_events") ? uids(n["gpu_events"]) : std::vector<tr::Uid>{}));
    CHECK(gpu_index.gpu_events(uid) == tree.gpu_events(uid));
    CHECK(tree.linked(uid) == (n.HasMember("tree") && n["tree"].GetBool()));
    CHECK(tree.cpu_op_root(uid) == (n.HasMember("cpu_op_root") && n["cpu_op_root"].GetBool()));
    CHECK(tree.non_gpu_path(uid) == (n.HasMember("non_gpu_path") && n["non_gpu_path"].GetBool()));
    std::vector<std::string> stack;
    if (n.HasMember("nn_module_stack")) {
      for (const auto& s : n["nn_module_stack"].GetArray()) stack.emplace_back(s.GetString());
    }
    CHECK(tree.nn_module_stack(uid) == stack);
    CHECK(tree.fwd_event(uid) ==
          (n.HasMember("fwd_event") ? n["fwd_event"].GetUint() : tr::kNoUid));
    CHECK(tree.bwd_events(uid) ==
          (n.HasMember("bwd_events") ? uids(n["bwd_events"]) : std::vector<tr::Uid>{}));
    ++checked;
  }
  for (const bool micro : {false, true}) {
    tr::GpuTimelineOptions topt;
    topt.time_mode = tr::TimeMode::kTraceLensCompat;
    if (micro) topt.micro_idle_threshold_us = 10.0;
    const auto t = tr::compute_gpu_timeline(model, tree, topt);
    REQUIRE(t);
    const auto& e = exp[micro ? "gpu_timeline_us_micro10" : "gpu_timeline_us"];
    CHECK(t->computation == e["computation_time"].GetDouble());
    CHECK(t->exposed_comm == e["exposed_comm_time"].GetDouble());
    CHECK(t->exposed_memcpy == e["exposed_memcpy_time"].GetDouble());
    CHECK(t->busy == e["busy_time"].GetDouble());
    CHECK(t->total == e["total_time"].GetDouble());
    CHECK(t->total_comm == e["total_comm_time"].GetDouble());
    CHECK(t->total_memcpy == e["total_memcpy_time"].GetDouble());
    if (micro) {
      CHECK(*t->micro_idle == e["micro_idle_time"].GetDouble());
      CHECK(*t->macro_idle == e["macro_idle_time"].GetDouble());
    } else {
      CHECK(t->idle == e["idle_time"].GetDouble());
    }
  }
  return checked;
}

}  // namespace

TEST_CASE("tree parity with TraceLens on every spec 5.9 test case, both python settings",
          "[trace][tree]") {
  std::size_t cases = 0, nodes = 0;
  for (const auto& entry : fs::directory_iterator(cases_dir())) {
    const fs::path dir = entry.path();
    const tr::LoadResult loaded = load(dir / "trace.json");
    const std::string text = loupe::test::read_text(dir / "expected_tracelens.json");
    rapidjson::Document expected;
    expected.Parse(text.c_str());
    REQUIRE_FALSE(expected.HasParseError());
    nodes +=
        check_mode(loaded.model, expected["add_python_func=false"], false, dir.filename().string());
    nodes +=
        check_mode(loaded.model, expected["add_python_func=true"], true, dir.filename().string());
    ++cases;
  }
  CHECK(cases == 19);
  CHECK(nodes > 200);
}

TEST_CASE("t07: compat drops the equal-end child frame, exact mode nests it", "[trace][tree]") {
  const tr::LoadResult loaded = load(cases_dir() / "t07_equal_end_rounding" / "trace.json");
  tr::TreeOptions opt;
  opt.add_python_func = true;
  opt.time_mode = tr::TimeMode::kTraceLensCompat;
  const auto compat = tr::EventTree::build(loaded.model, opt);
  CHECK(compat.dropped_by_bleed(1));
  CHECK(compat.parent(2) == 0);
  CHECK(compat.stats().dropped_by_bleed == 1);
  opt.time_mode = tr::TimeMode::kExact;
  const auto exact = tr::EventTree::build(loaded.model, opt);
  CHECK_FALSE(exact.dropped_by_bleed(1));
  CHECK(exact.parent(1) == 0);
  CHECK(exact.parent(2) == 1);
  CHECK(exact.stats().dropped_by_bleed == 0);
}

TEST_CASE("t04/t05 bleed rule: re-parent under 1 us at depth >= 2, else drop", "[trace][tree]") {
  {
    const auto loaded = load(cases_dir() / "t04_bleed_small_depth2" / "trace.json");
    const auto tree = tr::EventTree::build(loaded.model, {false, tr::TimeMode::kExact, {}, {}, {}});
    CHECK(tree.parent(2) == 0);  // C -> A, B popped
    CHECK(tree.stats().reparented_by_bleed == 1);
  }
  {
    const auto loaded = load(cases_dir() / "t05_bleed_large" / "trace.json");
    const auto tree = tr::EventTree::build(loaded.model, {false, tr::TimeMode::kExact, {}, {}, {}});
    CHECK(tree.dropped_by_bleed(2));  // C overlaps B by 10 us
    CHECK(tree.parent(3) == 1);       // D -> B
    CHECK(tree.parent(4) == 0);       // E -> A
  }
}

TEST_CASE("t16: metadata last record wins, string pids, UIDs count M events", "[trace][model]") {
  const auto loaded = load(cases_dir() / "t16_metadata" / "trace.json");
  const auto& m = loaded.model;
  const auto t = m.find_thread(tr::ThreadKey{{false, 100}, {false, 100}});
  REQUIRE(t);
  CHECK(m.thread_name(*t) == "thread 100 (pt_main)");
  CHECK(m.name(8) == "aten::relu");
  bool spans = false;
  for (const auto& th : m.threads())
    spans = spans || (th.key.pid.is_string && m.id_text(th.key.pid) == "Spans");
  CHECK(spans);
}

TEST_CASE("communication kernel names: nccl, rccl or cross_device_reduce, any case, anywhere",
          "[trace][timeline]") {
  CHECK(tr::is_communication_name("ncclKernel_AllReduce_RING_LL_Sum_float"));
  CHECK(tr::is_communication_name("void at::RCCLdevice_kernel"));
  CHECK(tr::is_communication_name("xNcCl"));
  CHECK(tr::is_communication_name("vllm::Cross_Device_Reduce_1stage<half, 8>"));
  CHECK(tr::is_communication_name("rccl"));
  CHECK_FALSE(tr::is_communication_name("ccl"));
  CHECK_FALSE(tr::is_communication_name("nccI_lookalike"));
  CHECK_FALSE(tr::is_communication_name("cross_device_reduc"));
  CHECK_FALSE(tr::is_communication_name(""));
  CHECK_FALSE(tr::is_communication_name("ampere_sgemm_128x64_nn"));
  CHECK(tr::is_communication_name("cclcclxcclRCCL"));  // the match after a few false starts
  // Names longer than the folding buffer (templated kernels) are searched byte by byte.
  const std::string long_prefix(3000, 'c');
  CHECK(tr::is_communication_name(long_prefix + "_NCCL_tail"));
  CHECK(tr::is_communication_name(long_prefix + "ross_device_reduce"));
  CHECK_FALSE(tr::is_communication_name(long_prefix + "cl"));
}
