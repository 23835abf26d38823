// Choosing the primary analyzer (docs/plugin-abi.md, "Choosing the primary";
// docs/configuration.md): `--prefer PLUGIN[:CATEGORY,...]` and the configuration file make a
// dropped-in plugin the primary of a category the bundled one has; the displaced plugin is
// recorded; preferences that cannot be honoured and bad configuration files stop with exit 2
// before any work. Purpose-built plugin: evil_conv claims the bundled conv's conv_fwd
// (tests/plugins/CMakeLists.txt, case claims_conv_fwd).
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include <rapidjson/document.h>

#include "cli_runner.hpp"

namespace fs = std::filesystem;
using loupe::test::read_text;
using loupe::test::run_process;
using loupe::test::TempDir;
using loupe::test::write_text;

namespace {

std::string evil_dir() { return (loupe::test::test_plugin_dir() / "claims_conv_fwd").string(); }

void write_conv_manifest(const fs::path& dir) {
  write_text(dir / "category_data" / "category_manifest.json",
             R"({"platform": "MI300X", "comparison_scope": "standalone", "categories": [
  {"name": "conv_fwd", "tier": "compute_kernel"}]})");
}

// loupe with XDG_CONFIG_HOME pointing at `config_home`, so no user's file is read.
loupe::test::CliResult loupe_with(const fs::path& config_home,
                                  const std::vector<std::string>& args) {
  return run_process(loupe::test::loupe_exe(), args, {"XDG_CONFIG_HOME=" + config_home.string()});
}

// Who analyzed conv_fwd, per loupe_run.json.
std::string conv_fwd_plugin(const rapidjson::Document& run) {
  for (const auto& p : run["plugins"].GetArray()) {
    for (const auto& c : p["categories"].GetArray()) {
      if (std::string(c["category"].GetString()) == "conv_fwd") return p["name"].GetString();
    }
  }
  return {};
}

rapidjson::Document run_record(const fs::path& out) {
  rapidjson::Document doc;
  doc.Parse(read_text(out / "loupe_run.json").c_str());
  REQUIRE(doc.IsObject());
  return doc;
}

}  // namespace

TEST_CASE("--prefer makes a dropped-in plugin the primary and records the displaced one",
          "[cli][prefer]") {
  TempDir home, in, out;
  write_conv_manifest(in.path());

  SECTION("without a preference the bundled analyzer keeps its category") {
    const auto r = loupe_with(home.path(), {"analyze", in.path().string(), "-o",
                                            out.path().string(), "--plugin-dir", evil_dir()});
    INFO(r.out << r.err);
    REQUIRE(r.exit_code == 0);
    const auto run = run_record(out.path());
    CHECK(conv_fwd_plugin(run) == "conv");
    CHECK_FALSE(run.HasMember("displaced"));
    // --strict still refuses the silent shadowing.
    const auto strict =
        loupe_with(home.path(), {"analyze", in.path().string(), "-o", out.path().string(),
                                 "--plugin-dir", evil_dir(), "--strict"});
    CHECK(strict.exit_code == 2);
  }
  for (const std::string prefer : {"evil_conv", "evil_conv:conv_fwd"}) {
    SECTION("--prefer " + prefer) {
      const auto r =
          loupe_with(home.path(), {"analyze", in.path().string(), "-o", out.path().string(),
                                   "--plugin-dir", evil_dir(), "--prefer", prefer, "--strict"});
      INFO(r.out << r.err);
      REQUIRE(r.exit_code == 0);
      const auto run = run_record(out.path());
      CHECK(conv_fwd_plugin(run) == "evil_conv");
      REQUIRE(run.HasMember("displaced"));
      REQUIRE(run["displaced"].Size() == 1);
      const auto& d = run["displaced"][0];
      CHECK(std::string(d["category"].GetString()) == "conv_fwd");
      CHECK(std::string(d["plugin"].GetString()) == "conv");
      CHECK(std::string(d["preferred"].GetString()) == "evil_conv");
      CHECK(std::string(d["source"].GetString()) == "--prefer");
      // Every file was loaded: nothing shadowed, and conv keeps conv_bwd.
      for (const auto& f : run["plugin_files"].GetArray()) {
        CHECK(std::string(f["state"].GetString()) == "loaded");
      }
      const auto listing =
          loupe_with(home.path(), {"plugins", "--plugin-dir", evil_dir(), "--prefer", prefer});
      CHECK(listing.exit_code == 0);
      CHECK_THAT(listing.out, Catch::Contains("conv_fwd: primary evil_conv in place of conv"));
    }
  }
}

TEST_CASE("the configuration file's preferences and plugin_dirs act like the options",
          "[cli][prefer]") {
  TempDir home, in, out;
  write_conv_manifest(in.path());
  write_text(home.path() / "loupe" / "config.json",
             R"({"plugin_dirs": [")" + evil_dir() + R"("], "prefer": ["evil_conv:conv_fwd"]})");
  const auto r =
      loupe_with(home.path(), {"analyze", in.path().string(), "-o", out.path().string()});
  INFO(r.out << r.err);
  REQUIRE(r.exit_code == 0);
  const auto run = run_record(out.path());
  CHECK(conv_fwd_plugin(run) == "evil_conv");
  REQUIRE(run["displaced"].Size() == 1);
  CHECK(std::string(run["displaced"][0]["source"].GetString()) ==
        (home.path() / "loupe" / "config.json").string());

  // --config FILE replaces the XDG file.
  TempDir other;
  write_text(other.path() / "c.json", R"({"plugin_dirs": [")" + evil_dir() + R"("]})");
  const auto r2 = loupe_with(home.path(), {"analyze", in.path().string(), "-o", out.path().string(),
                                           "--config", (other.path() / "c.json").string()});
  INFO(r2.out << r2.err);
  REQUIRE(r2.exit_code == 0);
  CHECK(conv_fwd_plugin(run_record(out.path())) == "conv");
}

TEST_CASE("preferences that cannot be honoured and bad configuration files stop before any work",
          "[cli][prefer]") {
  TempDir home, in, out;
  write_conv_manifest(in.path());
  const std::string config = (home.path() / "c.json").string();
  struct Case {
    std::vector<std::string> extra;
    std::string config_text;  // written to c.json and passed with --config when not empty
    std::string says;
  };
  const std::vector<Case> cases = {
      {{"--prefer", "no_such_plugin"}, "", "prefers plugin 'no_such_plugin', which is not among"},
      {{"--prefer", "evil_conv:conv_bwd"},
       "",
       "plugin 'evil_conv' does not analyze category 'conv_bwd'"},
      {{"--prefer", "evil_conv:conv_fwd", "--prefer", "conv:conv_fwd"},
       "",
       "two preferences for category 'conv_fwd': plugin 'evil_conv' (--prefer) and plugin 'conv' "
       "(--prefer)"},
      {{"--prefer", "conv:conv_fwd"},
       R"({"prefer": ["evil_conv"]})",
       "two preferences for category 'conv_fwd': plugin 'evil_conv' (" + config +
           ") and plugin 'conv' (--prefer)"},
      {{"--prefer", "evil conv"}, "", "is not a plugin name"},
      {{},
       R"({"prefer": ["evil_conv"], "colour": "red"})",
       config + ": unknown key \"colour\" (known keys: prefer, plugin_dirs, displaced_contribute)"},
      {{}, R"({"prefer": "evil_conv"})", config + ": \"prefer\" must be an array of strings"},
      {{}, R"({"prefer": ["evil_conv:"]})", config + ": \"prefer\"[0]: 'evil_conv:': no category"},
      {{}, R"({"prefer": [)", config + ": not valid JSON"},
  };
  std::size_t checked = 0;
  for (const auto& c : cases) {
    std::vector<std::string> args = {"analyze",           in.path().string(), "-o",
                                     out.path().string(), "--plugin-dir",     evil_dir()};
    args.insert(args.end(), c.extra.begin(), c.extra.end());
    if (!c.config_text.empty()) {
      write_text(config, c.config_text);
      args.push_back("--config");
      args.push_back(config);
    }
    const auto r = loupe_with(home.path(), args);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains(c.says));
    CHECK_FALSE(fs::exists(out.path() / "loupe_run.json"));
    ++checked;
  }
  CHECK(checked == 9);
  // A --config that does not exist.
  const auto missing =
      loupe_with(home.path(), {"analyze", in.path().string(), "-o", out.path().string(), "--config",
                               (home.path() / "nope.json").string()});
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("nope.json: no such file"));
}
