// `loupe analyze --trace ... --max-memory MB`: a trace whose estimated peak memory exceeds the
// limit is refused before anything is read or written (exit 2, a message naming the file, the
// estimate and the limit); the estimate of a .json.gz comes from its gzip trailer (ISIZE).
#include <catch2/catch.hpp>

#include <cstdint>

#include "cli_runner.hpp"
#include "trace_text.hpp"

namespace fs = std::filesystem;
using loupe::test::run_loupe;

namespace {

// `z` with its trailer's ISIZE (the last 4 bytes, little-endian) replaced by `isize`.
std::string with_isize(std::string z, std::uint32_t isize) {
  for (int i = 0; i < 4; ++i) {
    z[z.size() - 4 + static_cast<std::size_t>(i)] = static_cast<char>((isize >> (8 * i)) & 0xff);
  }
  return z;
}

}  // namespace

TEST_CASE("--max-memory below the estimate refuses the trace before writing anything",
          "[trace][cli][max-memory]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json";
  loupe::test::write_text(trace, loupe::test::trace::small_trace());
  const fs::path out = tmp.path() / "out";
  const auto r =
      run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "--max-memory", "1"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("estimated") && Catch::Contains("--max-memory 1 MB") &&
                        Catch::Contains(trace.string()));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("--max-memory above the estimate runs the analysis", "[trace][cli][max-memory]") {
  loupe::test::TempDir tmp;
  const fs::path trace = tmp.path() / "small.json.gz";
  loupe::test::write_text(trace, loupe::test::trace::gzip(loupe::test::trace::small_trace()));
  const fs::path out = tmp.path() / "out";
  const auto r =
      run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "--max-memory", "1000"});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(fs::is_regular_file(out / "loupe_run.json"));
}

TEST_CASE("--max-memory estimates a .json.gz from its ISIZE trailer", "[trace][cli][max-memory]") {
  loupe::test::TempDir tmp;
  // A small file whose trailer claims 3 GiB of JSON: the estimate follows the trailer.
  const fs::path trace = tmp.path() / "claims_3g.json.gz";
  loupe::test::write_text(
      trace, with_isize(loupe::test::trace::gzip(loupe::test::trace::small_trace()), 3u << 30));
  const fs::path out = tmp.path() / "out";
  const auto r =
      run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "--max-memory", "1000"});
  INFO(r.err);
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("3072 MB of JSON") && Catch::Contains("mod 2^32") &&
                        Catch::Contains("--max-memory 1000 MB"));
  CHECK_FALSE(fs::exists(out));
}

TEST_CASE("--max-memory applies to --trace only", "[trace][cli][max-memory]") {
  loupe::test::TempDir tmp;
  const auto r = run_loupe({"analyze", tmp.path().string(), "--max-memory", "100"});
  CHECK(r.exit_code == 2);
  CHECK_THAT(r.err, Catch::Contains("--max-memory apply to --trace only"));
}

TEST_CASE("--max-memory: a gzip file larger than its JSON is not taken for a wrapped ISIZE",
          "[trace][cli][max-memory]") {
  loupe::test::TempDir tmp;
  // 18 bytes of JSON make a 38-byte gzip member: ISIZE (18) is below the file size, which
  // the gzip header and trailer explain; it must not be read as 18 + 2^32 bytes.
  const fs::path trace = tmp.path() / "tiny.json.gz";
  loupe::test::write_text(trace, loupe::test::trace::gzip(R"({"traceEvents":[]})"));
  const fs::path out = tmp.path() / "out";
  const auto r =
      run_loupe({"analyze", "--trace", trace.string(), "-o", out.string(), "--max-memory", "100"});
  INFO(r.err);
  // Not refused for memory; the analysis then stops on the trace itself (no GPU event).
  CHECK_THAT(r.err, !Catch::Contains("--max-memory"));
  CHECK(r.exit_code == 2);
}
