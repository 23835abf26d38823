// Which platform spec `loupe analyze --trace` uses.
#include <catch2/catch.hpp>

#include <fstream>

#include "cli_runner.hpp"
#include "loupe/core/prepare/arch_selection.hpp"

namespace lp = loupe::core::prepare;

TEST_CASE("device names from deviceProperties map to bundled platforms", "[prepare][arch]") {
  CHECK(lp::platform_for_device("AMD Instinct MI300X") == "MI300X");
  CHECK(lp::platform_for_device("AMD Instinct MI300X VF") == "MI300X");
  CHECK(lp::platform_for_device("AMD Instinct MI325X") == "MI325X");
  CHECK(lp::platform_for_device("NVIDIA H100 80GB HBM3") == "H100");
  CHECK(lp::platform_for_device("NVIDIA H200") == "H200");
  CHECK(lp::platform_for_device("NVIDIA B200") == "B200");
  CHECK_FALSE(lp::platform_for_device("AMD Instinct MI210").has_value());
  const auto names = lp::bundled_platforms();
  CHECK(names == std::vector<std::string>{"B200", "H100", "H200", "MI300X", "MI325X", "MI355X"});
}

TEST_CASE("arch selection order: --arch, --platform, device, MI300X", "[prepare][arch]") {
  const auto from_device = lp::select_arch(std::nullopt, std::nullopt, {"NVIDIA H100 80GB HBM3"});
  CHECK(from_device.platform == "H100");
  CHECK(from_device.spec.find("mem_bw_gbps")->as_double() == 3350.0);
  CHECK(from_device.reason.find("NVIDIA H100 80GB HBM3") != std::string::npos);

  const auto forced = lp::select_arch(std::nullopt, std::string("MI325X"), {"NVIDIA B200"});
  CHECK(forced.platform == "MI325X");
  CHECK(forced.spec.find("max_achievable_tflops")->find("matrix_bf16")->as_double() == 843.0);

  const auto unknown_device = lp::select_arch(std::nullopt, std::nullopt, {"AMD Instinct MI210"});
  CHECK(unknown_device.platform == "MI300X");
  CHECK(unknown_device.reason.find("MI210") != std::string::npos);

  CHECK_THROWS_WITH(lp::select_arch(std::nullopt, std::string("A100"), {}),
                    Catch::Contains("unknown platform 'A100'") && Catch::Contains("MI355X"));
}

TEST_CASE("an --arch file is checked and named in errors", "[prepare][arch]") {
  loupe::test::TempDir dir;
  const auto good = dir.path() / "MyGPU.json";
  std::ofstream(good) << R"({"mem_bw_gbps": 2000, "memory_gb": 64,
                             "max_achievable_tflops": {"matrix_bf16": 300, "vector_fp32": 40}})";
  const auto arch = lp::select_arch(good, std::nullopt, {"NVIDIA H100"});
  CHECK(arch.platform == "MyGPU");  // no "name" key: the file stem
  CHECK(arch.reason.find(good.string()) != std::string::npos);

  const auto bad = dir.path() / "bad.json";
  std::ofstream(bad) << R"({"mem_bw_gbps": 2000, "max_achievable_tflops": {"matrix_bf16": -1}})";
  CHECK_THROWS_WITH(lp::select_arch(bad, std::nullopt, {}),
                    Catch::Contains(bad.string()) &&
                        Catch::Contains("max_achievable_tflops.matrix_bf16 must be a positive"));
  const auto not_json = dir.path() / "broken.json";
  std::ofstream(not_json) << "{";
  CHECK_THROWS_WITH(lp::select_arch(not_json, std::nullopt, {}), Catch::Contains("not valid JSON"));
  CHECK_THROWS(lp::select_arch(dir.path() / "missing.json", std::nullopt, {}));
}
