// Every action rule of the bundled analyzers that the reference pack can exercise, with one trace
// where it fires and one where it must not (default mode, findings.json): the rule is offered only
// where the trace's numbers, platform and phase call for it. Plus a sweep: no action on an AMD
// trace names an NVIDIA-only feature, and the other way round.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <rapidjson/document.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

struct Rule {
  const char* name;
  const char* category;  // of the finding that carries the action
  const char* phrase;    // in its title, insight or action
  const char* fires_on;  // trace under data/traces
  const char* not_on;
};

// Trace paths under data/traces of the pack.
constexpr const char* kBertH100 = "h100/gaunernst_bert-small-uncased__1016001.json.gz";
constexpr const char* kQwenH100 = "h100/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
constexpr const char* kQwenMi300 = "mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz";
constexpr const char* kTimesformer =
    "h100/facebook_timesformer-base-finetuned-k400__1016002.json.gz";
constexpr const char* kOwlv2 = "h100/google_owlv2-large-patch14-ensemble__1016001.json.gz";
constexpr const char* kResnet = "mi300/resnet_act_checkpoint.json.gz";
constexpr const char* kXdit = "inference/xdit_flux.1_aiter_sage/profile_trace_rank_0.json.gz";
constexpr const char* kSglangDecode = "inference/sglang_decode/sglang_Qwen3-8B_decode.json.gz";
constexpr const char* kGemmFewTiles =
    "unit_tests_standalone/gemm/gemm_01_compute_few_tiles_analysis_output/"
    "gemm_01_compute_few_tiles.json";
constexpr const char* kGemmNonPow2 =
    "unit_tests_standalone/gemm/gemm_02_compute_non_pow2_analysis_output/"
    "gemm_02_compute_non_pow2.json";
constexpr const char* kGemmTallSkinny =
    "unit_tests_standalone/gemm/gemm_04_memory_tall_skinny_analysis_output/"
    "gemm_04_memory_tall_skinny.json.gz";
constexpr const char* kSdpaLongSeq =
    "unit_tests_standalone/attention/sdpa_01_long_seq_low_eff_analysis_output/"
    "sdpa_01_long_seq_low_eff.json";
constexpr const char* kSdpaHeadWaste =
    "unit_tests_standalone/attention/sdpa_02_very_long_seq_head_waste_analysis_output/"
    "sdpa_02_very_long_seq_head_waste.json";
constexpr const char* kConvPlain =
    "unit_tests_standalone/conv/conv_01_large_spatial_small_ch_analysis_output/"
    "conv_01_large_spatial_small_ch.json";

const std::vector<Rule>& rules() {
  static const std::vector<Rule> kRules{
      // GEMM shape rules: padding only for a misaligned N/K (not for M, the token count).
      {"gemm pad N/K", "gemm", "Pad `", kGemmNonPow2, kQwenH100},
      {"gemm split-K for few output tiles", "gemm", "split-K", kGemmFewTiles, kGemmNonPow2},
      {"gemm batch tall-skinny products", "gemm", "tall-skinny", kGemmTallSkinny, kGemmFewTiles},
      {"gemm TunableOp names hipBLASLt on ROCm", "gemm", "hipBLASLt solution", kQwenMi300,
       kQwenH100},
      {"gemm TunableOp names cuBLAS on CUDA", "gemm", "cuBLAS solution", kQwenH100, kQwenMi300},
      // Attention.
      {"attention: batch short sequences", "sdpa_fwd", "Short sequences", kBertH100, kSdpaLongSeq},
      {"attention: head dim not a power of two", "sdpa_fwd", "is not a power of two",
       kSdpaHeadWaste, kSdpaLongSeq},
      {"fusion: unfused attention", "kernel_fusion", "single fused attention kernel", kTimesformer,
       kQwenH100},
      // Fusion of normalization chains.
      {"fusion: RMSNorm chain", "kernel_fusion", "Unfused RMSNorm", kQwenH100, kBertH100},
      {"fusion: BatchNorm", "kernel_fusion", "Unfused BatchNorm", kResnet, kQwenMi300},
      // Convolution layout.
      {"conv: channels-last", "conv_fwd", "channels_last", kResnet, kConvPlain},
      // System: launches, data loading, device dependencies.
      {"cpu_idle: capture the step in a GPU graph", "cpu_idle", "Capture the step in a GPU graph",
       kBertH100, kXdit},
      {"cpu_idle: the step already replays a GPU graph", "cpu_idle", "already replays a GPU graph",
       kXdit, kBertH100},
      {"cpu_idle: data loading between steps", "cpu_idle", "DataLoader(num_workers", kOwlv2,
       kBertH100},
      // Work queued before the profiler started is not a device dependency.
      {"cpu_idle: queued work waits on a device dependency", "cpu_idle",
       "waits on a device-side dependency", kSglangDecode, kQwenH100},
      // Copies and communication.
      // (timesformer: one 38.5 MB pageable copy at 17 % of the link; owlv2: 25 small copies,
      // 0.15 % of the run, not worth a card)
      {"multi_kernel: slow host-to-device copies (host link)", "multi_kernel",
       "Host-to-device staging copies", kTimesformer, kOwlv2},
      {"multi_kernel: frequent device-to-host copies", "multi_kernel",
       "Frequent device-to-host copies", kOwlv2, kQwenH100},
      {"multi_kernel: device-to-device copies", "multi_kernel", "Device-to-device copies", kResnet,
       kQwenMi300},
      {"multi_kernel: collectives not overlapped (training)", "multi_kernel",
       "bucketed gradient hooks", kResnet, kQwenMi300},
  };
  return kRules;
}

rapidjson::Document analyze(const fs::path& trace, loupe::test::TempDir& tmp) {
  const fs::path out = tmp.path() / trace.filename().string();
  const auto r =
      loupe::test::run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "-q"});
  INFO(trace.string() << "\n" << r.err);
  REQUIRE(r.exit_code == 0);
  rapidjson::Document doc;
  doc.Parse(loupe::test::read_text(out / "findings.json").c_str());
  REQUIRE(doc.IsObject());
  return doc;
}

bool carries(const rapidjson::Document& doc, const Rule& rule) {
  for (const auto& f : doc["findings"].GetArray()) {
    if (std::string(f["category"].GetString()) != rule.category) continue;
    for (const char* key : {"title", "insight", "action"}) {
      if (std::string(f[key].GetString()).find(rule.phrase) != std::string::npos) return true;
    }
  }
  return false;
}

}  // namespace

TEST_CASE("each action rule fires where its numbers call for it and nowhere else",
          "[actions][pack]") {
  LOUPE_REQUIRE_SHARED_OR_SKIP(shared);
  loupe::test::TempDir tmp;
  std::map<std::string, rapidjson::Document> runs;
  const auto run_of = [&](const char* relative) -> const rapidjson::Document& {
    auto it = runs.find(relative);
    if (it == runs.end()) {
      it = runs.emplace(relative, analyze(shared / "data/traces" / relative, tmp)).first;
    }
    return it->second;
  };
  REQUIRE(rules().size() >= 19);
  for (const Rule& rule : rules()) {
    INFO(rule.name);
    INFO("fires on " << rule.fires_on);
    CHECK(carries(run_of(rule.fires_on), rule));
    INFO("must not fire on " << rule.not_on);
    CHECK_FALSE(carries(run_of(rule.not_on), rule));
  }

  // The platform's own vocabulary: no NVIDIA-only feature on an AMD GPU and no ROCm-only one on
  // an NVIDIA GPU, in any finding of the traces above.
  std::size_t swept = 0;
  for (const auto& [relative, doc] : runs) {
    const std::string platform = doc["run"]["platform"].GetString();
    const bool amd = platform.rfind("MI", 0) == 0;
    for (const auto& f : doc["findings"].GetArray()) {
      const std::string text =
          std::string(f["insight"].GetString()) + " " + f["action"].GetString();
      INFO(relative << " (" << platform << "): " << f["title"].GetString() << "\n" << text);
      for (const char* nvidia_only : {"cuBLAS", "fa3", "FlashAttention-3", "Hopper", "CUTLASS"}) {
        if (amd) CHECK(text.find(nvidia_only) == std::string::npos);
      }
      for (const char* amd_only : {"hipBLASLt", "AITER", "ROCm", "Tensile", "HIP_"}) {
        if (!amd) CHECK(text.find(amd_only) == std::string::npos);
      }
      ++swept;
    }
  }
  CHECK(swept >= 40);
}
