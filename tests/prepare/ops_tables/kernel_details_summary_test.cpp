// §3.5.1 kernel_details_summary: positional statistics, sort order, int-typed durations, and
// the truncated form.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "loupe/core/prepare/kernel_details_summary.hpp"

namespace lp = loupe::core::prepare;

namespace {

// Names are views: string literals here, the trace model's strings in a run.
lp::KernelDetail kd(std::string_view name, double dur, bool is_int, std::string stream = "0") {
  return {name, {dur, is_int}, std::move(stream)};
}

}  // namespace

TEST_CASE("summary is sorted by (total duration, name), not by launch order",
          "[prepare][ops_tables]") {
  const std::vector<lp::KernelDetail> a = {kd("big", 1084, true, "None"),
                                           kd("post", 5, true, "None")};
  const std::vector<lp::KernelDetail> b = {kd("big", 1086, true, "None"),
                                           kd("post", 4, true, "None")};
  const std::vector<std::span<const lp::KernelDetail>> rows = {a, b};
  const auto stats = lp::summarize_kernel_details(rows);
  REQUIRE(stats.size() == 2);
  CHECK(stats[0].name == "post");
  CHECK(stats[1].name == "big");
  CHECK(lp::kernel_details_summary_repr(stats) ==
        "[{'name': 'post', 'stream': None, 'count': 2, 'total_duration_us': 9, "
        "'mean_duration_us': 4.5, 'median_duration_us': 4.5, 'std_dev_duration_us': 0.5, "
        "'min_duration_us': 4, 'max_duration_us': 5}, "
        "{'name': 'big', 'stream': None, 'count': 2, 'total_duration_us': 2170, "
        "'mean_duration_us': 1085.0, 'median_duration_us': 1085.0, 'std_dev_duration_us': 1.0, "
        "'min_duration_us': 1084, 'max_duration_us': 1086}]");
}

TEST_CASE("equal totals order by name; rows of another length are skipped",
          "[prepare][ops_tables]") {
  const std::vector<lp::KernelDetail> a = {kd("zeta", 2.5, false), kd("alpha", 2.5, false)};
  const std::vector<lp::KernelDetail> odd = {kd("zeta", 100.0, false)};
  const std::vector<lp::KernelDetail> empty;
  const std::vector<std::span<const lp::KernelDetail>> rows = {empty, a, odd};
  const auto stats = lp::summarize_kernel_details(rows);
  REQUIRE(stats.size() == 2);
  CHECK(stats[0].name == "alpha");
  CHECK(stats[0].count == 1);
  CHECK(stats[1].total.value == 2.5);
  CHECK_FALSE(stats[1].total.is_int);
}

TEST_CASE("trunc_kernel_details cuts names at 64 characters and rounds the mean",
          "[prepare][ops_tables]") {
  const std::string long_name(70, 'K');
  const std::vector<lp::KernelDetail> a = {kd(long_name, 110.453, false)};
  const std::vector<lp::KernelDetail> b = {kd(long_name, 110.725, false)};
  const std::vector<std::span<const lp::KernelDetail>> rows = {a, b};
  const auto stats = lp::summarize_kernel_details(rows);
  const auto trunc = lp::trunc_kernel_details_repr(stats);
  REQUIRE(trunc.has_value());
  std::string expected = "[{'name': '";
  expected.append(64, 'K');
  expected.append("...', 'stream': 0, 'mean_duration_us': 110.59}]");
  CHECK(*trunc == expected);
  CHECK_FALSE(lp::trunc_kernel_details_repr({}).has_value());
  CHECK(lp::summarize_kernel_details({}).empty());
}
