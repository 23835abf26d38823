#include "plugin_preferences.hpp"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include "loupe/core/util/safe_name.hpp"

namespace loupe::cli {

namespace fs = std::filesystem;

namespace {

constexpr const char* kKnownKeys = "prefer, plugin_dirs, displaced_contribute";

// The configuration file to read: --config, else the XDG one when it exists ("" when none).
fs::path config_path(const po::variables_map& vm) {
  if (vm.count("config") > 0) return vm["config"].as<std::string>();
  fs::path base;
  if (const char* xdg = std::getenv("XDG_CONFIG_HOME"); xdg != nullptr && xdg[0] != '\0') {
    base = xdg;
  } else if (const char* home = std::getenv("HOME"); home != nullptr && home[0] != '\0') {
    base = fs::path(home) / ".config";
  } else {
    return {};
  }
  const fs::path path = base / "loupe" / "config.json";
  std::error_code ec;
  return fs::exists(path, ec) ? path : fs::path();
}

std::string read_config(const fs::path& path, PluginConfig& out) {
  const std::string where = path.string();
  std::error_code ec;
  if (!fs::is_regular_file(path, ec)) {
    return where + ": " + (fs::exists(path, ec) ? "not a regular file" : "no such file");
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return where + ": cannot be read";
  std::ostringstream text;
  text << in.rdbuf();
  rapidjson::Document doc;
  doc.Parse(text.str().c_str(), text.str().size());
  if (doc.HasParseError()) {
    return where + ": not valid JSON (" + rapidjson::GetParseError_En(doc.GetParseError()) +
           " at offset " + std::to_string(doc.GetErrorOffset()) + ")";
  }
  if (!doc.IsObject()) return where + ": must hold one JSON object";
  for (const auto& member : doc.GetObject()) {
    const std::string key = member.name.GetString();
    const auto& value = member.value;
    if (key == "prefer") {
      if (!value.IsArray()) return where + ": \"prefer\" must be an array of strings";
      for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
        const std::string entry = where + ": \"prefer\"[" + std::to_string(i) + "]";
        if (!value[i].IsString()) return entry + " must be a string (PLUGIN[:CATEGORY,...])";
        core::Preference pref;
        if (auto why = parse_preference(value[i].GetString(), where, pref); !why.empty()) {
          return entry + ": " += why;
        }
        out.preferences.push_back(std::move(pref));
      }
    } else if (key == "plugin_dirs") {
      if (!value.IsArray()) return where + ": \"plugin_dirs\" must be an array of strings";
      for (rapidjson::SizeType i = 0; i < value.Size(); ++i) {
        if (!value[i].IsString() || value[i].GetStringLength() == 0) {
          return where + ": \"plugin_dirs\"[" + std::to_string(i) + "] must be a non-empty string";
        }
        fs::path dir = value[i].GetString();
        // A relative directory is relative to the file that names it.
        if (dir.is_relative()) dir = path.parent_path() / dir;
        out.plugin_dirs.push_back(std::move(dir));
      }
    } else if (key == "displaced_contribute") {
      if (!value.IsBool()) return where + ": \"displaced_contribute\" must be true or false";
      out.displaced_contribute = value.GetBool();
    } else {
      std::string problem = where + ": unknown key \"";
      problem += key;
      problem += "\" (known keys: ";
      problem += kKnownKeys;
      return problem += ")";
    }
  }
  return {};
}

}  // namespace

void add_preference_options(po::options_description& options) {
  options.add_options()(
      "prefer", po::value<std::vector<std::string>>()->composing(),
      "PLUGIN[:CATEGORY,...]: make PLUGIN the primary analyzer of these categories (default: "
      "all it names), in place of the plugin found first; repeatable")(
      "displaced-contribute",
      "a plugin that --prefer or the configuration file displaces still runs, as a contributing "
      "analyzer of the categories it lost")(
      "config", po::value<std::string>(),
      "read preferences and plugin directories from this JSON file instead of "
      "$XDG_CONFIG_HOME/loupe/config.json (docs/configuration.md)");
}

std::string parse_preference(const std::string& text, const std::string& source,
                             core::Preference& out) {
  out = {};
  out.source = source;
  const auto colon = text.find(':');
  out.plugin = text.substr(0, colon);
  if (!core::is_safe_name(out.plugin)) {
    return "'" + text + "': '" + out.plugin +
           "' is not a plugin name (1-64 characters of A-Z a-z 0-9 _ -)";
  }
  if (colon == std::string::npos) return {};
  std::stringstream list(text.substr(colon + 1));
  std::string category;
  while (std::getline(list, category, ',')) {
    if (!core::is_safe_name(category)) {
      std::string problem = "'" + text + "': '";
      problem += category;
      return problem += "' is not a category name (1-64 characters of A-Z a-z 0-9 _ -)";
    }
    out.categories.push_back(category);
  }
  if (out.categories.empty()) return "'" + text + "': no category after ':'";
  return {};
}

std::string load_plugin_config(const po::variables_map& vm, PluginConfig& out) {
  out = {};
  out.file = config_path(vm);
  if (!out.file.empty()) {
    if (auto why = read_config(out.file, out); !why.empty()) return why;
  }
  if (vm.count("displaced-contribute") > 0) out.displaced_contribute = true;
  if (vm.count("prefer") > 0) {
    for (const auto& text : vm["prefer"].as<std::vector<std::string>>()) {
      core::Preference pref;
      if (auto why = parse_preference(text, "--prefer", pref); !why.empty()) {
        return "--prefer " + why;
      }
      out.preferences.push_back(std::move(pref));
    }
  }
  return {};
}

}  // namespace loupe::cli
