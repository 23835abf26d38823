// Pseudo ops (docs/contracts/trace_model.md §2.10, trace/pseudo_ops.hpp) on hand-written
// traces: for each recognizer, where it fires (the op's name, UID, place in the tree and args)
// and where it must not; the paged-attention quirk; then the perf-model numbers the ops get in
// the prepared tables (tests/trace/cli_pseudo_ops_test.cpp).
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "loupe/core/prepare/analysis_dir_writer.hpp"
#include "loupe/core/prepare/call_stack.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"
#include "loupe/core/trace/gpu_event_index.hpp"
#include "loupe/core/trace/json_reader.hpp"
#include "loupe/core/trace/pseudo_ops.hpp"
#include "pseudo_op_traces.hpp"

namespace tr = loupe::core::trace;
using loupe::test::pseudo::TraceBuilder;

namespace {

struct Built {
  tr::LoadResult loaded;
  tr::EventTree tree;
  tr::PseudoOpReport report;
  std::size_t trace_events = 0;
};

Built build(const std::string& text, bool compat = true) {
  Built b;
  b.loaded = tr::load_trace_bytes(text);
  REQUIRE_FALSE(b.loaded.error);
  b.trace_events = b.loaded.model.event_count();
  b.tree = tr::EventTree::build(b.loaded.model, loupe::core::prepare::prepare_tree_options());
  tr::PseudoOpOptions options;
  options.moe_triton_unfused = compat;
  b.report = tr::add_pseudo_ops(b.loaded.model, b.tree, options);
  // The GPU-op index laid out after the edits agrees with the edited tree on every node.
  const tr::GpuEventIndex index(b.tree);
  std::size_t differing = 0;
  for (tr::Uid u = 0; u < b.tree.node_count(); ++u) {
    if (index.gpu_events(u) != b.tree.gpu_events(u)) ++differing;
  }
  CHECK(differing == 0);
  return b;
}

tr::Uid uid_named(const tr::TraceModel& m, std::string_view name, std::size_t nth = 0) {
  for (tr::Uid u = 0; u < m.event_count(); ++u) {
    if (m.name(u) == name && nth-- == 0) return u;
  }
  return tr::kNoUid;
}

std::vector<tr::Uid> children(const tr::EventTree& t, tr::Uid u) {
  return {t.children(u).begin(), t.children(u).end()};
}

std::string arg(const tr::TraceModel& m, tr::Uid u, std::string_view key) {
  return m.arg_text(u, key).value_or("<absent>");
}

bool has_ts(const tr::TraceModel& m, tr::Uid u) { return (m.event(u).flags & tr::kHasTs) != 0; }

}  // namespace

TEST_CASE("AITER fused MoE: the fmoe kernel's launch goes under a pseudo op", "[trace][pseudo]") {
  Built b = build(loupe::test::pseudo::aiter_fused_moe_trace(false));
  const auto& m = b.loaded.model;
  REQUIRE(b.report.runs.size() == 1);
  CHECK(b.report.runs[0].kind == tr::PseudoOpKind::kMoeAiterFused);
  CHECK(b.report.runs[0].outcome == tr::RecognizerOutcome::kApplied);
  REQUIRE(m.event_count() == b.trace_events + 1);
  // UID = the trace's event count.
  const tr::Uid pseudo = static_cast<tr::Uid>(b.trace_events);
  CHECK(m.name(pseudo) == "pseudo_op::moe_aiter_fused_1stage");
  CHECK(m.event(pseudo).category == tr::Category::kCpuOp);
  const tr::Uid op = uid_named(m, "vllm::rocm_aiter_fused_moe");
  const tr::Uid sort_launch = uid_named(m, "hipLaunchKernel", 0);
  const tr::Uid fmoe_launch = uid_named(m, "hipLaunchKernel", 1);
  const tr::Uid fmoe = uid_named(m, "aiter::fmoe_g1u1_bf16");
  CHECK(b.tree.parent(pseudo) == op);
  // The launch moves under the pseudo op, which is appended to the op's children; the launch's
  // own parent link stays the op (TraceLens does not update it).
  CHECK(children(b.tree, op) == std::vector<tr::Uid>{sort_launch, pseudo});
  CHECK(children(b.tree, pseudo) == std::vector<tr::Uid>{fmoe_launch});
  CHECK(b.tree.parent(fmoe_launch) == op);
  CHECK(b.tree.gpu_events(pseudo) == std::vector<tr::Uid>{fmoe});
  // The op's shapes and sequence number, the kernel's correlation, no ts or dur.
  CHECK(arg(m, pseudo, "Input Dims") == arg(m, op, "Input Dims"));
  CHECK(arg(m, pseudo, "Input type") == arg(m, op, "Input type"));
  CHECK(arg(m, pseudo, "Concrete Inputs") == arg(m, op, "Concrete Inputs"));
  CHECK(arg(m, pseudo, "Pseudo op") == "true");
  CHECK(m.detail(pseudo)->sequence == 77);
  CHECK(m.detail(pseudo)->external_id == m.detail(fmoe)->correlation);
  CHECK_FALSE(has_ts(m, pseudo));
  CHECK(m.thread_name(m.event(pseudo).thread) == m.thread_name(m.event(op).thread));
  // The kernel's call stack below the pseudo op: its launch's parent link skips the pseudo op, so
  // TraceLens's upward walk runs to the root.
  CHECK(loupe::core::prepare::frames_below(m, b.tree, pseudo, fmoe) ==
        std::vector<std::string>{"vllm::moe_forward", "vllm::rocm_aiter_fused_moe"});
}

TEST_CASE("AITER fused MoE: no pseudo op without one fmoe kernel or vllm::moe_forward",
          "[trace][pseudo]") {
  // Two fused-MoE kernels under the op: TraceLens expects exactly one and leaves the op.
  Built two = build(loupe::test::pseudo::aiter_fused_moe_trace(true));
  REQUIRE(two.report.runs.size() == 1);
  CHECK(two.report.runs[0].created == 0);
  CHECK(two.loaded.model.event_count() == two.trace_events);
  // Without vllm::moe_forward the recognizer is not selected at all.
  std::string text = loupe::test::pseudo::aiter_fused_moe_trace(false);
  const auto at = text.find("vllm::moe_forward");
  REQUIRE(at != std::string::npos);
  text.replace(at, std::string("vllm::moe_forward").size(), "vllm::other_forward");
  Built none = build(text);
  CHECK(none.report.runs.empty());
  CHECK(none.loaded.model.event_count() == none.trace_events);
}

TEST_CASE("a paged-attention op stops every pseudo op (TraceLens's failing import)",
          "[trace][pseudo]") {
  for (const char* op : {"_rocm_C::paged_attention", "aiter::paged_attention_v1"}) {
    INFO(op);
    TraceBuilder t;
    t.raw(loupe::test::pseudo::aiter_fused_moe_events(false));
    t.cpu(op, 5000, 50);
    Built b = build(t.text());
    CHECK(b.report.blocked_by_paged_attention);
    CHECK(b.report.runs.empty());
    CHECK(b.loaded.model.event_count() == b.trace_events);
  }
}

TEST_CASE("GPT-OSS triton MoE: up, down and finalize pseudo ops with the router's top-k",
          "[trace][pseudo][moe]") {
  Built b = build(loupe::test::pseudo::triton_moe_trace(true));
  const auto& m = b.loaded.model;
  REQUIRE(b.report.runs.size() == 1);
  CHECK(b.report.runs[0].kind == tr::PseudoOpKind::kMoeTritonUnfused);
  REQUIRE(b.report.runs[0].created == 3);
  const tr::Uid first = static_cast<tr::Uid>(b.trace_events);
  const tr::Uid op = uid_named(m, "vllm::moe_forward");
  const tr::Uid topk = uid_named(m, "TopK");
  // The kernels are launched down-projection first in file order, but ordered by start time:
  // the swiglu kernel (earlier on the GPU) is the up projection.
  CHECK(m.name(first) == "pseudo_op::moe_triton_unfused_up");
  CHECK(m.name(first + 1) == "pseudo_op::moe_triton_unfused_down");
  CHECK(m.name(first + 2) == "pseudo_op::moe_triton_unfused_finalize_matmul_scatter");
  CHECK(children(b.tree, op) == std::vector<tr::Uid>{topk, first, first + 1, first + 2});
  for (tr::Uid p = first; p < first + 3; ++p) {
    CHECK(b.tree.parent(p) == op);
    CHECK(arg(m, p, "Input Dims") == "[[32,3072],[32,32],[],[]]");
    CHECK(m.detail(p)->sequence == op);  // the op records no sequence number: its UID
  }
  CHECK(m.name(b.tree.gpu_events(first)[0]) ==
        "_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu");
  CHECK(arg(m, first, "MoE GEMM type") == "\"up\"");
  CHECK(arg(m, first, "MoE GEMM index") == "0");
  CHECK(arg(m, first, "MoE GEMM gated") == "true");
  CHECK(arg(m, first, "MoE topk") == "4");
  CHECK(arg(m, first + 1, "MoE GEMM type") == "\"down\"");
  CHECK(arg(m, first + 1, "MoE GEMM index") == "1");
  CHECK(arg(m, first + 1, "MoE GEMM gated") == "false");
  CHECK(arg(m, first + 2, "MoE GEMM type") == "\"finalize_matmul_scatter\"");
  CHECK(arg(m, first + 2, "MoE topk") == "<absent>");

  // The perf model reads the pseudo op's own args.
  const auto args = loupe::core::prepare::trace_op_args(m, &b.tree, first, {});
  REQUIRE(args.pseudo_args.is_object());
  CHECK(args.pseudo_args.find("MoE topk")->as_int() == 4);
  CHECK(args.pseudo_args.find("MoE GEMM gated")->as_bool());
  CHECK(args.pseudo_args.find("Pseudo op") == nullptr);
  CHECK(loupe::core::prepare::trace_op_args(m, &b.tree, op, {}).pseudo_args.is_null());
}

TEST_CASE("GPT-OSS triton MoE: default mode keeps Loupe's model of the whole op",
          "[trace][pseudo][moe]") {
  Built b = build(loupe::test::pseudo::triton_moe_trace(true), /*compat=*/false);
  CHECK(b.report.runs.empty());
  CHECK(b.loaded.model.event_count() == b.trace_events);
}

TEST_CASE("GPTQ/AWQ MoE: up and down pseudo ops, top-k from the topk_ids shape",
          "[trace][pseudo][moe]") {
  Built b = build(loupe::test::pseudo::gptq_moe_trace());
  const auto& m = b.loaded.model;
  REQUIRE(b.report.runs.size() == 1);
  CHECK(b.report.runs[0].kind == tr::PseudoOpKind::kMoeGptqAwq);
  REQUIRE(b.report.runs[0].created == 2);
  const tr::Uid up = static_cast<tr::Uid>(b.trace_events);
  const tr::Uid op = uid_named(m, "vllm::outplace_fused_experts");
  CHECK(m.name(up) == "pseudo_op::moe_gptq_awq_up");
  CHECK(m.name(up + 1) == "pseudo_op::moe_gptq_awq_down");
  CHECK(b.tree.parent(up) == op);
  CHECK(arg(m, up, "MoE topk") == "2");
  CHECK(arg(m, up, "MoE GEMM gated") == "true");
  CHECK(arg(m, up + 1, "MoE GEMM gated") == "false");
  CHECK(m.detail(up)->sequence == 9);

  // Other kernels only: not selected.
  std::string text = loupe::test::pseudo::gptq_moe_trace();
  for (std::size_t at; (at = text.find("fused_moe_kernel_gptq_awq")) != std::string::npos;)
    text.replace(at, 25, "fused_moe_kernel_plain");
  Built none = build(text);
  CHECK(none.report.runs.empty());
}

TEST_CASE("flydsl MoE: a pseudo op above each stage frame under aiter::fused_moe_",
          "[trace][pseudo][moe]") {
  Built b = build(loupe::test::pseudo::flydsl_moe_trace(true));
  const auto& m = b.loaded.model;
  REQUIRE(b.report.runs.size() == 1);
  CHECK(b.report.runs[0].kind == tr::PseudoOpKind::kMoeFlydsl);
  REQUIRE(b.report.runs[0].created == 2);
  const tr::Uid s1 = static_cast<tr::Uid>(b.trace_events);
  const tr::Uid fused = uid_named(m, "aiter::fused_moe_");
  const tr::Uid frame1 = uid_named(m, "aiter/fused_moe.py(10): flydsl_moe_stage1");
  const tr::Uid frame2 = uid_named(m, "aiter/fused_moe.py(20): flydsl_moe_stage2");
  CHECK(m.name(s1) == "pseudo_op::moe_flydsl_stage1");
  CHECK(m.name(s1 + 1) == "pseudo_op::moe_flydsl_stage2");
  // In the frame's slot, the frame below it; the frame's time.
  CHECK(children(b.tree, fused) == std::vector<tr::Uid>{s1, s1 + 1});
  CHECK(children(b.tree, s1) == std::vector<tr::Uid>{frame1});
  CHECK(b.tree.parent(frame1) == s1);
  CHECK(b.tree.parent(frame2) == s1 + 1);
  CHECK(m.ts_us(s1) == m.ts_us(frame1));
  CHECK(m.dur_us(s1 + 1) == m.dur_us(frame2));
  CHECK(arg(m, s1, "Input Dims") == arg(m, fused, "Input Dims"));
  CHECK(arg(m, s1, "MoE flydsl stage") == "\"flydsl_moe_stage1\"");
  CHECK(m.detail(s1)->sequence == 31);

  // Stage frames outside aiter::fused_moe_ get nothing.
  Built none = build(loupe::test::pseudo::flydsl_moe_trace(false));
  CHECK(none.loaded.model.event_count() == none.trace_events);
}

TEST_CASE("MLA decode and prefill: a pseudo op wrapping the frame's children",
          "[trace][pseudo][attention]") {
  Built b = build(loupe::test::pseudo::mla_trace(true));
  const auto& m = b.loaded.model;
  REQUIRE(b.report.runs.size() == 2);
  CHECK(b.report.runs[0].kind == tr::PseudoOpKind::kMlaDecode);
  CHECK(b.report.runs[1].kind == tr::PseudoOpKind::kMlaPrefill);
  const tr::Uid decode = static_cast<tr::Uid>(b.trace_events);
  const tr::Uid prefill = decode + 1;
  REQUIRE(m.name(decode) == "pseudo_mla_decode_fwd");
  REQUIRE(m.name(prefill) == "pseudo_mla_prefill_fwd");
  const tr::Uid frame = uid_named(m, "aiter/mla.py(123): mla_decode_fwd");
  const tr::Uid stage1 = uid_named(m, "aiter::mla_decode_stage1_asm_fwd");
  const tr::Uid reduce = uid_named(m, "aiter::mla_reduce_v1");
  CHECK(children(b.tree, frame) == std::vector<tr::Uid>{decode});
  CHECK(children(b.tree, decode) == std::vector<tr::Uid>{stage1, reduce});
  CHECK(b.tree.parent(stage1) == decode);
  CHECK(b.tree.parent(decode) == frame);
  CHECK(m.ts_us(decode) == m.ts_us(frame));
  CHECK(m.dur_us(decode) == m.dur_us(frame));
  CHECK(arg(m, decode, "Input Dims") == arg(m, stage1, "Input Dims"));
  CHECK(b.tree.gpu_events(decode).size() == 2);
  // The cpu ops that were roots (no cpu op above them) now sit under the pseudo op, which is a
  // root itself.
  const auto& roots = b.tree.cpu_root_nodes();
  CHECK(std::find(roots.begin(), roots.end(), stage1) == roots.end());
  CHECK(std::find(roots.begin(), roots.end(), reduce) == roots.end());
  CHECK(std::find(roots.begin(), roots.end(), decode) != roots.end());
  CHECK(std::find(roots.begin(), roots.end(), prefill) != roots.end());
  // Default mode's step annotation reaches the added ops (docs/deviations.md).
  REQUIRE(b.tree.serving_step_annotation(m, decode));
  CHECK(*b.tree.serving_step_annotation(m, decode) == loupe::test::pseudo::kMlaStep);

  // A decode frame without the stage-1 op below it: no pseudo op.
  Built none = build(loupe::test::pseudo::mla_trace(false));
  REQUIRE(none.report.runs.size() == 2);  // selected: the op and a matching frame exist
  CHECK(none.report.runs[0].created == 0);
  CHECK(none.report.runs[1].created == 1);
}

TEST_CASE("DeepSeek-V4 paged decode: the mode and geometry from the attention op's kernels",
          "[trace][pseudo][attention]") {
  for (const bool hca : {false, true}) {
    INFO(hca);
    Built b = build(loupe::test::pseudo::v4_decode_trace(hca));
    const auto& m = b.loaded.model;
    REQUIRE(b.report.runs.size() == 1);
    CHECK(b.report.runs[0].kind == tr::PseudoOpKind::kV4PagedDecode);
    const tr::Uid p = static_cast<tr::Uid>(b.trace_events);
    REQUIRE(m.event_count() == b.trace_events + 1);
    CHECK(m.name(p) == (hca ? "pseudo_v4_paged_decode_hca" : "pseudo_v4_paged_decode_swa"));
    const tr::Uid frame = uid_named(m, "deepseek/paged_decode.py(55): sparse_attn_v4_paged_decode");
    const tr::Uid attention = uid_named(m, "aiter::v4_attention_with_output");
    CHECK(b.tree.parent(p) == frame);
    CHECK(arg(m, p, "Input Dims") == arg(m, attention, "Input Dims"));
    CHECK(arg(m, p, "v4_mode") == (hca ? "\"hca\"" : "\"swa\""));
    CHECK(arg(m, p, "v4_call_index") == "0");
    CHECK(arg(m, p, "v4_model_name") == "null");
    CHECK(arg(m, p, "v4_tp") == "1");
    CHECK(arg(m, p, "v4_H_Q") == "64");
    CHECK(arg(m, p, "v4_d_h") == "512");
    const auto args = loupe::core::prepare::trace_op_args(m, &b.tree, p, {});
    REQUIRE(args.pseudo_args.is_object());
    CHECK(args.pseudo_args.find("v4_H_Q")->as_int() == 64);
  }
}

TEST_CASE("a recognizer stops where TraceLens's extension raises, keeping what it made",
          "[trace][pseudo][moe]") {
  // Both matmul_ogs kernels replayed by one graph launch: the first pseudo op takes the launch;
  // for the second the launch is no longer the MoE op's child (TraceLens's list.remove raises).
  // The second op exists (UID taken) but sits outside the tree; the step continues.
  TraceBuilder t;
  t.cpu("vllm::moe_forward", 0, 400, R"({"Input Dims":[[32,3072],[32,32],[],[]]})");
  t.raw(
      R"({"ph":"X","cat":"cuda_runtime","name":"hipGraphLaunch","pid":1,"tid":1,"ts":100,"dur":5,)"
      R"("args":{"correlation":500}},)"
      R"({"ph":"X","cat":"kernel","name":"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1_swiglu",)"
      R"("pid":0,"tid":7,"ts":1000,"dur":10,"args":{"correlation":500,"stream":7}},)"
      R"({"ph":"X","cat":"kernel","name":"_matmul_ogs_NNT_bf16xbf16xmxfp4_16x128x256x1",)"
      R"("pid":0,"tid":7,"ts":1100,"dur":10,"args":{"correlation":500,"stream":7}})");
  Built b = build(t.text());
  const auto& m = b.loaded.model;
  REQUIRE(b.report.runs.size() == 1);
  CHECK(b.report.runs[0].outcome == tr::RecognizerOutcome::kFailed);
  CHECK(b.report.runs[0].created == 2);
  const tr::Uid up = static_cast<tr::Uid>(b.trace_events);
  const tr::Uid op = uid_named(m, "vllm::moe_forward");
  const tr::Uid launch = uid_named(m, "hipGraphLaunch");
  CHECK(children(b.tree, op) == std::vector<tr::Uid>{up});
  CHECK(children(b.tree, up) == std::vector<tr::Uid>{launch});
  // The down op: parent link set, in no child list.
  CHECK(m.name(up + 1) == "pseudo_op::moe_triton_unfused_down");
  CHECK(b.tree.parent(up + 1) == op);
  CHECK(arg(m, up, "MoE topk") == "4");  // no TopK op: TraceLens's default
}
