// report.html and perf_breakdown.svg of the bundled sample, opened in a real browser: headless
// Chromium's rendered DOM holds the summary, one card per finding, the Top Operations rows and
// the plot, and its screenshot is not blank. The ctest entry is skipped (exit 77) where no
// chromium is installed (tests/support/catch_main.cpp).
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include <rapidjson/document.h>
#include <zlib.h>
#include <catch2/catch.hpp>

#include "cli_runner.hpp"
#include "test_paths.hpp"

namespace fs = std::filesystem;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

loupe::test::CliResult browse(const fs::path& profile, const std::vector<std::string>& args) {
  std::vector<std::string> all = {"120",
                                  loupe::test::chromium()->string(),
                                  "--headless",
                                  "--no-sandbox",
                                  "--disable-gpu",
                                  "--disable-quic",
                                  "--no-first-run",
                                  "--disable-background-networking",
                                  "--disable-component-update",
                                  "--disable-sync",
                                  "--user-data-dir=" + profile.string()};
  all.insert(all.end(), args.begin(), args.end());
  return loupe::test::run_process("/usr/bin/timeout", all);
}

std::uint32_t big_endian(const std::string& s, std::size_t at) {
  return (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at])) << 24) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 1])) << 16) |
         (static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 2])) << 8) |
         static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + 3]));
}

struct PngFacts {
  std::uint32_t width = 0;
  std::uint32_t height = 0;
  std::size_t distinct_bytes = 0;  // in the inflated (filtered) image data
};

// Reads the PNG's size and inflates its image data with zlib: a blank page is a few byte
// values over and over, a rendered report is nearly all of them.
PngFacts png_facts(const std::string& png) {
  PngFacts facts;
  REQUIRE(png.size() > 33);
  REQUIRE(png.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0);
  std::string idat;
  for (std::size_t at = 8; at + 8 <= png.size();) {
    const std::uint32_t length = big_endian(png, at);
    const std::string type = png.substr(at + 4, 4);
    if (type == "IHDR") {
      facts.width = big_endian(png, at + 8);
      facts.height = big_endian(png, at + 12);
    }
    if (type == "IDAT") idat += png.substr(at + 8, length);
    at += 12 + length;
  }
  z_stream z{};
  REQUIRE(inflateInit(&z) == Z_OK);
  z.next_in = reinterpret_cast<Bytef*>(idat.data());
  z.avail_in = static_cast<uInt>(idat.size());
  std::set<unsigned char> seen;
  unsigned char buffer[1 << 16];
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = buffer;
    z.avail_out = sizeof buffer;
    rc = inflate(&z, Z_NO_FLUSH);
    for (std::size_t i = 0; i < sizeof buffer - z.avail_out; ++i) seen.insert(buffer[i]);
  }
  inflateEnd(&z);
  CHECK(rc == Z_STREAM_END);
  facts.distinct_bytes = seen.size();
  return facts;
}

}  // namespace

TEST_CASE("report.html renders in headless Chromium with every part of the report",
          "[report][browser]") {
  REQUIRE(loupe::test::chromium());
  loupe::test::TempDir tmp;
  const fs::path out = tmp.path() / "run";
  const auto run = loupe::test::run_loupe(
      {"analyze", "--trace",
       (loupe::test::bundled_data_dir() / "samples/mi300/Qwen_Qwen1.5-0.5B-Chat__1016005.json.gz")
           .string(),
       "-o", out.string(), "-q"});
  INFO(run.out << run.err);
  REQUIRE(run.exit_code == 0);
  const std::string html = loupe::test::read_text(out / "report.html");
  // Self-contained: no script, no stylesheet or image fetched from anywhere.
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
  CHECK(html.find(" src=") == std::string::npos);
  CHECK(count(html, "http") == count(html, "http://www.w3.org/2000/svg"));  // SVG namespace only

  // The plot: the five compute categories of the sample, then the non-computing rest.
  const std::string svg = loupe::test::read_text(out / "perf_breakdown.svg");
  CHECK_THAT(svg, Catch::StartsWith("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK(count(svg, "class=\"segment\"") == 6);
  CHECK_THAT(svg, Catch::Contains("Elementwise \xE2\x80\x94 12.1 ms (36.5%)") &&
                      Catch::Contains("Gemm \xE2\x80\x94 11.6 ms (35.2%)") &&
                      Catch::Contains("Non-computing \xE2\x80\x94 3.4 ms (10.2%)"));

  rapidjson::Document findings;
  findings.Parse(loupe::test::read_text(out / "findings.json").c_str());
  REQUIRE(findings.IsObject());
  const std::size_t cards = findings["findings"].Size();
  rapidjson::Document priority;
  priority.Parse(loupe::test::read_text(out / "priority_data.json").c_str());
  REQUIRE(priority.IsObject());
  const std::size_t top_ops = priority["priorities"].Size();
  REQUIRE(cards == 7);  // 8 cards, one (an op with no model) under coverage
  REQUIRE(top_ops == 3);

  const fs::path url = out / "report.html";
  const auto dom = browse(tmp.path() / "profile-dom", {"--dump-dom", "file://" + url.string()});
  INFO(dom.err);
  REQUIRE(dom.exit_code == 0);
  CHECK_THAT(dom.out, Catch::Contains("<h1 id=\"title\">Qwen2 family (Qwen1.5 / Qwen2) - MI300X "
                                      "Standalone Analysis</h1>") &&
                          Catch::Contains("<td class=\"num\">33.131 ms</td>") &&
                          Catch::Contains("<td class=\"num\" id=\"finding-count\">7</td>"));
  CHECK(count(dom.out, "<div class=\"card p") == cards);
  CHECK(count(dom.out, "<tr class=\"top-op\">") == top_ops);
  CHECK(count(dom.out, "class=\"segment\"") == 6);  // the inline SVG is in the DOM
  CHECK_THAT(dom.out, Catch::Contains("href=\"category_data/gemm_ops.csv\""));

  const fs::path shot = tmp.path() / "report.png";
  const auto screenshot = browse(
      tmp.path() / "profile-shot",
      {"--window-size=1200,1600", "--screenshot=" + shot.string(), "file://" + url.string()});
  INFO(screenshot.err);
  REQUIRE(screenshot.exit_code == 0);
  const PngFacts page = png_facts(loupe::test::read_text(shot));
  CHECK(page.width == 1200);
  CHECK(page.height == 1600);
  // A blank page screenshotted the same way is the control: the check can fail.
  loupe::test::write_text(tmp.path() / "blank.html", "<!DOCTYPE html><html><body></body></html>");
  const fs::path blank_shot = tmp.path() / "blank.png";
  REQUIRE(browse(tmp.path() / "profile-blank",
                 {"--window-size=1200,1600", "--screenshot=" + blank_shot.string(),
                  "file://" + (tmp.path() / "blank.html").string()})
              .exit_code == 0);
  const PngFacts blank = png_facts(loupe::test::read_text(blank_shot));
  INFO("distinct bytes: report " << page.distinct_bytes << ", blank " << blank.distinct_bytes);
  CHECK(blank.distinct_bytes <= 8);
  CHECK(page.distinct_bytes >= 128);
}
