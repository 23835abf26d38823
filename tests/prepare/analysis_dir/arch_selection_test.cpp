// Which platform spec `loupe analyze --trace` uses.
#include <catch2/catch.hpp>

#include <fstream>

#include "cli_runner.hpp"
#include "loupe/core/prepare/arch_selection.hpp"
#include "loupe/core/trace/json_reader.hpp"

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

TEST_CASE("platform names in any case", "[prepare][arch]") {
  CHECK(lp::bundled_platform_named("h100") == "H100");
  CHECK(lp::bundled_platform_named("Mi300x") == "MI300X");
  CHECK_FALSE(lp::bundled_platform_named("H10").has_value());
  const auto lower = lp::select_arch(std::nullopt, std::string("mi325x"), {});
  CHECK(lower.platform == "MI325X");
  CHECK(lower.spec.find("max_achievable_tflops")->find("matrix_bf16")->as_double() == 843.0);
  // No guess between GPU names one edit apart (A100 is not an H100): the list is given.
  CHECK_THROWS_WITH(lp::select_arch(std::nullopt, std::string("A100"), {}),
                    !Catch::Contains("did you mean") && Catch::Contains("bundled: B200, H100"));
}

TEST_CASE("a device without a known name is told by compute units and memory", "[prepare][arch]") {
  using lp::DeviceInfo;
  // Same 304 CUs: the memory tells MI300X (192 GB) from MI325X (256 GB).
  CHECK(lp::platform_for_device(DeviceInfo{"AMD Radeon Graphics", 191.5, 304}) == "MI300X");
  CHECK(lp::platform_for_device(DeviceInfo{"", 255.98, 304}) == "MI325X");
  CHECK(lp::platform_for_device(DeviceInfo{"", 79.2, 132}) == "H100");
  CHECK(lp::platform_for_device(DeviceInfo{"", 139.8, 132}) == "H200");
  CHECK(lp::platform_for_device(DeviceInfo{"", 178.4, 148}) == "B200");
  CHECK(lp::platform_for_device(DeviceInfo{"", 287.6, 256}) == "MI355X");
  // Units without memory, or a pair no bundled platform has (MI210: 104 CUs, 64 GB): none.
  CHECK_FALSE(lp::platform_for_device(DeviceInfo{"", std::nullopt, 304}).has_value());
  CHECK_FALSE(lp::platform_for_device(DeviceInfo{"AMD Instinct MI210", 64.0, 104}).has_value());
  CHECK_FALSE(lp::platform_for_device(DeviceInfo{"", 120.0, 304}).has_value());
  // The name wins over the numbers.
  CHECK(lp::platform_for_device(DeviceInfo{"NVIDIA H200", 79.2, 132}) == "H200");

  const auto chosen = lp::select_arch_for_devices(std::nullopt, std::nullopt,
                                                  {DeviceInfo{"AMD Radeon Graphics", 191.5, 304}});
  CHECK(chosen.platform == "MI300X");
  CHECK(chosen.from_device);
  CHECK_THAT(chosen.reason, Catch::Contains("304 compute units") && Catch::Contains("191.5 GiB"));
  const auto fallback = lp::select_arch_for_devices(std::nullopt, std::nullopt, {});
  CHECK(fallback.platform == "MI300X");
  CHECK_FALSE(fallback.from_device);
}

TEST_CASE("deviceProperties are read from the trace", "[prepare][arch]") {
  const auto loaded = loupe::core::trace::load_trace_bytes(
      R"({"deviceProperties": [{"id": 0, "name": "NVIDIA B200", "totalGlobalMem": 191503138816,)"
      R"( "numSms": 148}, {"id": 1}], "traceEvents": []})");
  REQUIRE_FALSE(loaded.error);
  const auto devices = lp::trace_devices(loaded.model);
  REQUIRE(devices.size() == 2);
  CHECK(devices[0].name == "NVIDIA B200");
  CHECK(*devices[0].memory_gib == Approx(178.35).margin(0.01));
  CHECK(devices[0].compute_units == 148);
  CHECK(devices[1].name.empty());
  CHECK_FALSE(devices[1].memory_gib.has_value());
  CHECK_FALSE(devices[1].compute_units.has_value());
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
