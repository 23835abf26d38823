// Perf models of the serving-engine extension ops and the step annotations they read. The
// expected numbers are the ones TraceLens wrote for these ops on the serving-engine runs of the
// reference pack (vLLM piecewise/full-graph decode on MI300X, xDiT FLUX.1).
#include <catch2/catch.hpp>

#include <string>

#include "json_text.hpp"
#include "loupe/core/prepare/perf_model.hpp"
#include "loupe/core/prepare/trace_op_args.hpp"
#include "loupe/core/trace/event_tree.hpp"
#include "loupe/core/trace/step_labels.hpp"
#include "prepare_test_support.hpp"

namespace perf = loupe::core::prepare::perf;
namespace tr = loupe::core::trace;
using loupe::core::prepare::parse_json_text;

namespace {

constexpr const char* kVllmStep =
    "execute_8192_context_9(sq8155sk8430sqsq7475785sqsk7671310)"
    "_generation_37(sq37sk34489sqsq37sqsk34489)";

perf::OpArgs args_of(const char* dims, const char* types) {
  perf::OpArgs args;
  args.input_dims = parse_json_text(dims);
  args.input_types = parse_json_text(types);
  return args;
}

using loupe::test::model_param;

}  // namespace

TEST_CASE("step labels: the detailed vLLM, SGLang and ATOM labels carry token counts",
          "[perf_model][serving]") {
  const auto vllm = tr::step_token_counts(kVllmStep);
  REQUIRE(vllm);
  CHECK(vllm->c_sq == 8155);
  CHECK(vllm->c_sk == 8430);
  CHECK(vllm->c_sqsq == 7475785);
  CHECK(vllm->c_sqsk == 7671310);
  CHECK(vllm->g_sq == 37);
  CHECK(vllm->g_sk == 34489);
  CHECK(vllm->g_sqsq == 37);
  CHECK(vllm->g_sqsk == 34489);

  const auto sglang = tr::step_token_counts(
      "step[MIXED bs=2 c=1 g=1 c_sq=5 c_sk=8 c_sqsq=25 c_sqsk=40 g_sq=1 g_sk=12 g_sqsq=1 "
      "g_sqsk=12]");
  REQUIRE(sglang);
  CHECK(sglang->c_sk == 8);
  CHECK(sglang->c_sqsk == 40);
  CHECK(sglang->g_sk == 12);

  const auto atom_prefill = tr::step_token_counts(
      "prefill[bs=2 tok=14721 ctx=[7803, 6918] sqsq=108745533 sqsk=108745533 sk=14721]");
  REQUIRE(atom_prefill);
  CHECK(atom_prefill->c_sq == 14721);
  CHECK(atom_prefill->c_sqsq == 108745533);
  CHECK(atom_prefill->g_sq == 0);
  const auto atom_decode =
      tr::step_token_counts("decode[bs=32 tok=128 d=32 spec=3 sqsq=512 sqsk=262144 sk=65536]");
  REQUIRE(atom_decode);
  CHECK(atom_decode->g_sq == 128);
  CHECK(atom_decode->g_sk == 65536);
  CHECK(atom_decode->c_sq == 0);

  // Native labels (no sq/sk sums) and anything else carry no counts.
  CHECK_FALSE(tr::step_token_counts("execute_context_2(14721)_generation_0(0)"));
  CHECK_FALSE(tr::step_token_counts("step[DECODE bs=64]"));
  CHECK_FALSE(tr::step_token_counts("decode[bs=64 tok=64 d=64]"));
  CHECK_FALSE(tr::step_token_counts("NA"));
  CHECK_FALSE(tr::step_token_counts(""));
}

TEST_CASE("vllm::unified_attention_with_output: one step of chunked prefill and decode",
          "[perf_model][serving]") {
  perf::OpArgs args = args_of(
      "[[8192,64,64],[8192,8,64],[8192,8,64],[8192,64,64],[],[],[],[0]]",
      R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","c10::BFloat16","","","","c10::BFloat16"])");
  args.step_annotation = kVllmStep;
  const auto r =
      perf::evaluate("vllm::unified_attention_with_output", args, perf::Direction::kForward);
  REQUIRE(r.ok());
  const auto m = perf::compute_metrics(r, 214.4544677734375, nullptr);
  CHECK(m.gflops == 65.010180096);
  CHECK(*m.data_moved_mb == 211.826171875);
  CHECK(m.compute_spec == "matrix_bf16");
  CHECK(model_param(r, "H_Q") == "64");
  CHECK(model_param(r, "N_KV") == "8192");
  CHECK(model_param(r, "c_sqsk") == "7671310");
  CHECK(model_param(r, "dropout") == "0.0");
  CHECK(model_param(r, "dtype_KV") == "c10::BFloat16");

  // Without a detailed step label there is nothing to count: the row keeps no metrics.
  args.step_annotation = "NA";
  CHECK(perf::evaluate("vllm::unified_attention_with_output", args, perf::Direction::kForward)
            .error == perf::ModelError::kFailed);
  args.step_annotation.reset();
  CHECK(perf::evaluate("vllm::unified_attention_with_output", args, perf::Direction::kForward)
            .error == perf::ModelError::kFailed);
  // A step with neither context nor generation tokens is not modeled (row dropped).
  args.step_annotation = "execute_0_context_0(sq0sk0sqsq0sqsk0)_generation_0(sq0sk0sqsq0sqsk0)";
  CHECK(perf::evaluate("vllm::unified_attention_with_output", args, perf::Direction::kForward)
            .error == perf::ModelError::kNotImplemented);
}

TEST_CASE("vllm::rocm_unquantized_gemm: the lm_head of a vLLM decode step",
          "[perf_model][serving]") {
  perf::OpArgs args =
      args_of("[[32,2880],[201088,2880],[]]", R"(["c10::BFloat16","c10::BFloat16",""])");
  args.kernel_names = {"Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT32x32x256"};
  const auto r = perf::evaluate("vllm::rocm_unquantized_gemm", args, perf::Direction::kForward);
  REQUIRE(r.ok());
  const auto m = perf::compute_metrics(r, 263.67, nullptr);
  CHECK(m.gflops == 37.06454016);
  CHECK(*m.data_moved_mb == 1117.05859375);
  CHECK(m.compute_spec == "matrix_bf16");
  CHECK(model_param(r, "M") == "32");
  CHECK(model_param(r, "N") == "201088");
  CHECK(model_param(r, "K") == "2880");
  CHECK(model_param(r, "bias") == "False");
  CHECK(model_param(r, "dtype_A_B") == "('c10::BFloat16', 'c10::BFloat16', '')");
  CHECK(model_param(r, "transpose") == "(True, False)");
  CHECK(perf::find_model("vllm::rocm_unquantized_gemm")->category == "GEMM");

  // With a bias the output is written in the bias dtype.
  perf::OpArgs biased = args_of("[[4,8],[16,8],[16]]", R"(["float","float","c10::BFloat16"])");
  const auto rb = perf::evaluate("vllm::rocm_unquantized_gemm", biased, perf::Direction::kForward);
  REQUIRE(rb.ok());
  CHECK(rb.flops.to_double() == 2.0 * 4 * 16 * 8 + 4 * 16);
  CHECK(rb.bytes->to_double() == 4 * 8 * 4 + 8 * 16 * 4 + 4 * 16 * 2 + 16 * 2);
}

TEST_CASE("aiter::_groupnorm_run is a GroupNorm (xDiT FLUX.1 VAE)", "[perf_model][serving]") {
  const perf::ModelInfo* info = perf::find_model("aiter::_groupnorm_run");
  REQUIRE(info != nullptr);
  CHECK(info->category == "NORM_fwd");
  perf::OpArgs args =
      args_of("[[1,512,32,32],[],[512],[512],[]]",
              R"(["c10::BFloat16","Scalar","c10::BFloat16","c10::BFloat16","Scalar"])");
  args.input_strides = parse_json_text("[[524288,1024,32,1],[],[1],[1],[]]");
  args.concrete_inputs = parse_json_text(R"(["","32","","","9.9999999999999995e-07"])");
  const auto r = perf::evaluate("aiter::_groupnorm_run", args, perf::Direction::kForward);
  REQUIRE(r.ok());
  const auto m = perf::compute_metrics(r, 10.0, nullptr);
  CHECK(m.gflops == 0.002624512);
  CHECK(*m.data_moved_mb == 2.005859375);
  CHECK(m.compute_spec == "vector_bf16");
  CHECK(model_param(r, "num_channels") == "512");
}

TEST_CASE("the tree gives vLLM's attention ops the step annotation that encloses them",
          "[perf_model][serving]") {
  const auto data = loupe::test::load_with_report_tree_from_text(R"json({"traceEvents": [
    {"ph":"X","cat":"user_annotation","name":"execute_8_context_1(sq8sk8sqsq64sqsk64)_generation_0(sq0sk0sqsq0sqsk0)","pid":1,"tid":1,"ts":100,"dur":50},
    {"ph":"X","cat":"user_annotation","name":"outer","pid":1,"tid":1,"ts":0,"dur":1000},
    {"ph":"X","cat":"cpu_op","name":"vllm::unified_attention_with_output","pid":1,"tid":1,"ts":110,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"vllm::unified_attention_with_output","pid":1,"tid":1,"ts":500,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"vllm::unified_attention_with_output","pid":1,"tid":1,"ts":2000,"dur":10},
    {"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":112,"dur":2}
  ]})json");
  const auto& loaded = data.loaded;
  const auto& tree = data.tree;
  const auto uid_at = [&](double ts, std::string_view name) {
    for (tr::Uid u = 0; u < loaded.model.event_count(); ++u) {
      if (loaded.model.ts_us(u) == ts && loaded.model.name(u) == name) return u;
    }
    FAIL("no event " << name << " at " << ts);
    return tr::kNoUid;
  };
  const std::string_view attention = "vllm::unified_attention_with_output";
  // The first annotation by start time that strictly encloses the op: "outer" starts first.
  CHECK(tree.step_annotation(loaded.model, uid_at(110, attention)) == "outer");
  CHECK(tree.step_annotation(loaded.model, uid_at(500, attention)) == "outer");
  CHECK(tree.step_annotation(loaded.model, uid_at(2000, attention)) == "NA");
  CHECK_FALSE(tree.step_annotation(loaded.model, uid_at(112, "aten::mm")).has_value());
  const auto args =
      loupe::core::prepare::trace_op_args(loaded.model, &tree, uid_at(2000, attention), {});
  CHECK(args.step_annotation == "NA");
}

// The serving-engine GEMMs: numbers computed by hand from TraceLens's formulas (GEMM base
// class: flops 2*M*N*K (+ M*N with a bias), bytes M*K*bpe_a + K*N*bpe_b + M*N*bpe_out
// (+ N*bpe_bias)).
TEST_CASE("aiter::gemm_a16w16: a Qwen3-8B o_proj on 64 tokens", "[perf_model][serving]") {
  perf::OpArgs args =
      args_of("[[64,4096],[4096,4096],[],[]]", R"(["c10::BFloat16","c10::BFloat16","","Scalar"])");
  const auto r = perf::evaluate("aiter::gemm_a16w16", args, perf::Direction::kForward);
  REQUIRE(r.ok());
  // 2*64*4096*4096 = 2147483648; 64*4096*2 + 4096*4096*2 + 64*4096*2 = 34603008.
  CHECK(r.flops.to_double() == 2147483648.0);
  CHECK(r.bytes->to_double() == 34603008.0);
  CHECK(r.compute_spec == "matrix_bf16");
  CHECK(model_param(r, "dtype_A_B") == "('c10::BFloat16', 'c10::BFloat16', 'c10::BFloat16')");
  CHECK(model_param(r, "bias") == "False");
  CHECK(perf::find_model("aiter::gemm_a16w16")->category == "GEMM");
  // With a bias vector: + M*N flops and + N*2 bytes.
  perf::OpArgs biased = args_of("[[64,4096],[1024,4096],[1024],[]]",
                                R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar"])");
  const auto rb = perf::evaluate("aiter::gemm_a16w16", biased, perf::Direction::kForward);
  REQUIRE(rb.ok());
  CHECK(rb.flops.to_double() == 2.0 * 64 * 1024 * 4096 + 64 * 1024);
  CHECK(rb.bytes->to_double() == 64 * 4096 * 2 + 4096 * 1024 * 2 + 64 * 1024 * 2 + 1024 * 2);
  // The atomic variant writes its output in the dtype of argument 3 (here fp32: 4 bytes).
  perf::OpArgs atomic =
      args_of("[[8,512],[256,512],[],[8,256]]", R"(["c10::BFloat16","c10::BFloat16","","float"])");
  const auto ra = perf::evaluate("aiter::gemm_a16w16_atomic_", atomic, perf::Direction::kForward);
  REQUIRE(ra.ok());
  CHECK(ra.bytes->to_double() == 8 * 512 * 2 + 512 * 256 * 2 + 8 * 256 * 4);
  // The asm variant takes the output dtype from argument 2 when it has a width.
  perf::OpArgs asm_args = args_of("[[8,512],[256,512],[8,256],[]]",
                                  R"(["c10::BFloat16","c10::BFloat16","float","unsigned int"])");
  const auto rs = perf::evaluate("aiter::_gemm_a16w16_asm", asm_args, perf::Direction::kForward);
  REQUIRE(rs.ok());
  CHECK(rs.bytes->to_double() == 8 * 512 * 2 + 512 * 256 * 2 + 8 * 256 * 4);
  // Shapes missing: the op is not modeled (no number), the reason is said.
  const auto missing =
      perf::evaluate("aiter::gemm_a16w16", args_of("[[64,4096]]", R"(["c10::BFloat16"])"),
                     perf::Direction::kForward);
  CHECK(missing.error == perf::ModelError::kFailed);
  CHECK_FALSE(missing.message.empty());
}

TEST_CASE("FP8 block-scale and MXFP4 GEMMs", "[perf_model][serving]") {
  // x fp8 (128, 7168), w fp8 (2112, 7168), scales (128, 56) and (17, 56): blocks of 128.
  perf::OpArgs a8w8 =
      args_of("[[128,7168],[2112,7168],[128,56],[17,56],[128,2112]]",
              R"(["c10::Float8_e4m3fnuz","c10::Float8_e4m3fnuz","float","float","c10::BFloat16"])");
  const auto r = perf::evaluate("aiter::gemm_a8w8_blockscale_ck", a8w8, perf::Direction::kForward);
  REQUIRE(r.ok());
  CHECK(r.flops.to_double() == 2.0 * 128 * 2112 * 7168);
  // 128*7168*1 + 7168*2112*1 + 128*2112*2 = 917504 + 15138816 + 540672.
  CHECK(r.bytes->to_double() == 16596992.0);
  CHECK(r.compute_spec == "matrix_fp8");
  CHECK(model_param(r, "block_k") == "128");
  CHECK(model_param(r, "block_n") == "125");  // ceil(2112 / 17)
  CHECK(model_param(r, "quant_scheme") == "a8w8_blockscale");
  CHECK(model_param(r, "output_shape") == "(128, 2112)");

  // MXFP4 x and w, two values per byte: K = 2 * 3584; bytes 0.5 per element (a float).
  perf::OpArgs fp4 = args_of("[[32,3584],[4096,3584],[32,224],[4096,224],[],[32,4096]]",
                             R"(["unsigned char","unsigned char","unsigned char","unsigned char",
                                 "","c10::BFloat16"])");
  const auto r4 = perf::evaluate("aiter::gemm_afp4wfp4_", fp4, perf::Direction::kForward);
  REQUIRE(r4.ok());
  CHECK(model_param(r4, "K") == "7168");
  CHECK(r4.flops.to_double() == 2.0 * 32 * 4096 * 7168);
  CHECK_FALSE(r4.bytes->is_int);
  CHECK(r4.bytes->to_double() == 32 * 7168 * 0.5 + 7168 * 4096 * 0.5 + 32 * 4096 * 2);
  CHECK(r4.compute_spec == "matrix_fp4");

  // Batched bf16 x fp4 (MLA absorbed projections): B * per-batch.
  perf::OpArgs batched = args_of("[[16,32,512],[16,128,256],[16,128,16]]",
                                 R"(["c10::BFloat16","unsigned char","unsigned char"])");
  const auto rb =
      perf::evaluate("aiter::batched_gemm_a16wfp4_", batched, perf::Direction::kForward);
  REQUIRE(rb.ok());
  CHECK(rb.flops.to_double() == 16.0 * 2 * 32 * 128 * 512);
  CHECK(rb.bytes->to_double() == 16 * (32 * 512 * 2 + 512 * 128 * 0.5 + 32 * 128 * 2));
  CHECK(rb.compute_spec == "matrix_fp4");
}

TEST_CASE("gated activations: silu_and_mul and gelu_and_mul", "[perf_model][serving]") {
  perf::OpArgs args = args_of("[[64,12288],[64,24576]]", R"(["c10::BFloat16","c10::BFloat16"])");
  args.input_strides = parse_json_text("[[12288,1],[24576,1]]");
  const auto r = perf::evaluate("sgl_kernel::silu_and_mul", args, perf::Direction::kForward);
  REQUIRE(r.ok());
  // 5 flops per output element; reads 2 * 64 * 12288 bf16, writes 64 * 12288 bf16.
  CHECK(r.flops.to_double() == 5.0 * 64 * 12288);
  CHECK(r.bytes->to_double() == 2.0 * 64 * 12288 * 2 + 64 * 12288 * 2);
  CHECK(r.compute_spec == "vector_bf16");
  CHECK(model_param(r, "stride_input") == "(24576, 1)");
  CHECK(perf::find_model("sgl_kernel::silu_and_mul")->sheet_family == "UnaryElementwise");
  CHECK(perf::evaluate("aiter::gelu_and_mul", args, perf::Direction::kForward).flops.to_double() ==
        8.0 * 64 * 12288);
  CHECK(perf::evaluate("aiter::gelu_tanh_and_mul", args, perf::Direction::kForward)
            .flops.to_double() == 10.0 * 64 * 12288);
  // fp32 split-K input: 4 bytes per input element.
  perf::OpArgs fp32 = args_of("[[4,256],[4,512]]", R"(["c10::BFloat16","float"])");
  fp32.input_strides = parse_json_text("[[256,1],[512,1]]");
  const auto rf = perf::evaluate("aiter::silu_and_mul", fp32, perf::Direction::kForward);
  REQUIRE(rf.ok());
  CHECK(rf.bytes->to_double() == 2.0 * 4 * 256 * 4 + 4 * 256 * 2);
  CHECK(rf.compute_spec == "vector_fp32");
}

// RMSNorm kernels: aten RMSNorm's formulas (flops rows*(2N+2) + 2n, bytes 2n*bpe + N*bpe)
// on each layout, plus the fused work; numbers computed by hand.
TEST_CASE("serving RMSNorms: plain, with residual add, with FP8 group quant, with MXFP4",
          "[perf_model][serving]") {
  // 64 rows of 4096 bf16: n = 262144, rows = 64.
  const double n = 64.0 * 4096;
  const double base_flops = 64.0 * (2 * 4096 + 2) + 2 * n;  // 1048704 + ... as a float
  perf::OpArgs plain = args_of("[[64,4096],[4096],[]]", R"(["c10::BFloat16","c10::BFloat16",""])");
  plain.input_strides = parse_json_text("[[4096,1],[1],[]]");
  const auto r = perf::evaluate("aiter::rms_norm", plain, perf::Direction::kForward);
  REQUIRE(r.ok());
  CHECK_FALSE(r.flops.is_int);  // rows = n / N is a true division in TraceLens
  CHECK(r.flops.to_double() == base_flops);
  CHECK(r.bytes->to_double() == 2 * n * 2 + 4096 * 2);
  CHECK(r.compute_spec == "vector_bf16");
  CHECK(model_param(r, "num_channels") == "4096");
  CHECK(perf::find_model("aiter::rms_norm")->category == "RMSNorm");
  CHECK(perf::find_model("aiter::rms_norm")->sheet_family == "RMSNorm");

  // (out, x, residual_in, residual_out, weight, eps): + n flops, residual read and written.
  perf::OpArgs add = args_of("[[64,4096],[64,4096],[64,4096],[64,4096],[4096],[]]",
                             R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16",
                                 "c10::BFloat16","c10::BFloat16","Scalar"])");
  add.input_strides = parse_json_text("[[4096,1],[4096,1],[4096,1],[4096,1],[1],[]]");
  const auto ra =
      perf::evaluate("aiter::rmsnorm2d_fwd_with_add_ck", add, perf::Direction::kForward);
  REQUIRE(ra.ok());
  CHECK(ra.flops.to_double() == n + base_flops);
  CHECK(ra.bytes->to_double() == 2 * n * 2 + 4096 * 2 + 2 * n * 2);

  // vLLM (x, residual, weight, eps, group_size=128): + 3n flops; x, residual and weight read,
  // FP8 output (1 byte), residual written, one fp32 scale per group of 128 per row.
  perf::OpArgs quant = args_of("[[64,4096],[64,4096],[4096],[],[]]",
                               R"(["c10::BFloat16","c10::BFloat16","c10::BFloat16","Scalar",
                                   "Scalar"])");
  quant.input_strides = parse_json_text("[[4096,1],[4096,1],[1],[],[]]");
  quant.concrete_inputs = parse_json_text(R"(["","","","1e-06","128"])");
  const auto rq = perf::evaluate("vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", quant,
                                 perf::Direction::kForward);
  REQUIRE(rq.ok());
  CHECK(rq.flops.to_double() == base_flops + 3 * n);
  CHECK(rq.bytes->to_double() == n * 2 + n * 2 + 4096 * 2 + n + n * 2 + 64 * 32 * 4);
  // Without its group size the vLLM kernel cannot be modeled (TraceLens fails likewise).
  quant.concrete_inputs = parse_json_text(R"(["","","","1e-06",""])");
  CHECK(perf::evaluate("vllm::rocm_aiter_rmsnorm_with_add_fp8_group_quant", quant,
                       perf::Direction::kForward)
            .error == perf::ModelError::kFailed);

  // MXFP4 output: half a byte per element plus one scale byte per 32 (a float total).
  perf::OpArgs fp4 = args_of("[[64,4096],[4096],[]]", R"(["c10::BFloat16","c10::BFloat16",""])");
  fp4.input_strides = parse_json_text("[[4096,1],[1],[]]");
  const auto r4 = perf::evaluate("aiter::_fuse_rmsnorm_fp4_quant", fp4, perf::Direction::kForward);
  REQUIRE(r4.ok());
  CHECK(r4.flops.to_double() == base_flops + 2 * n);
  CHECK_FALSE(r4.bytes->is_int);
  CHECK(r4.bytes->to_double() == n * 2 + 4096 * 2 + n * 0.5 + n / 32);
}
