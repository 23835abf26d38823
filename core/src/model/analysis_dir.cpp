#include "loupe/core/analysis_dir.hpp"

#include <algorithm>
#include <fstream>
#include <vector>

#include "loupe/core/arch_specs.hpp"

namespace loupe::core {

namespace fs = std::filesystem;

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot open " + path.string());
  // One read of the expected size (a stringstream copy grows its buffer step by step), then
  // whatever follows if the file grew meanwhile.
  std::error_code ec;
  const auto expected = fs::file_size(path, ec);
  std::string text(ec ? 0 : static_cast<std::size_t>(expected), '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.good()) {
    char chunk[65536];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
      text.append(chunk, static_cast<std::size_t>(in.gcount()));
    }
  }
  if (in.bad()) throw std::runtime_error("error while reading " + path.string());
  return text;
}

namespace {

// Regular files of DIR/sub with the given extension, sorted by name.
std::vector<fs::path> files_with_extension(const fs::path& dir, const std::string& extension) {
  std::vector<fs::path> out;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return out;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.is_regular_file(ec) && entry.path().extension() == extension) {
      out.push_back(entry.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

void load_json_files(Model& model, const fs::path& root, const std::string& sub) {
  for (const auto& path : files_with_extension(root / sub, ".json")) {
    const std::string name = sub + "/" + path.filename().string();
    try {
      model.set_document(name, parse_json_document(read_file(path)));
    } catch (const std::exception& e) {
      model.set_load_error(name, path.string() + ": " + e.what());
    }
  }
}

void load_csv_files(Model& model, const fs::path& root, const std::string& sub) {
  for (const auto& path : files_with_extension(root / sub, ".csv")) {
    const std::string name = sub + "/" + path.filename().string();
    try {
      model.set_table(name, std::make_shared<const CsvTable>(parse_csv(read_file(path))));
    } catch (const std::exception& e) {
      model.set_load_error(name, path.string() + ": " + e.what());
    }
  }
}

}  // namespace

Model load_analysis_directory(const fs::path& dir, ArchSet arch_set) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw InputError(dir.string() + ": no such directory");
  if (!fs::is_directory(dir, ec)) throw InputError(dir.string() + ": not a directory");

  Model model;
  model.set_property("input_dir", fs::absolute(dir, ec).lexically_normal().string());
  load_json_files(model, dir, "category_data");
  load_json_files(model, dir, "metadata");
  load_csv_files(model, dir, "category_data");
  for (const char* sub :
       {"perf_report_csvs", "perf_report_trace1_csvs", "perf_report_trace2_csvs"}) {
    load_csv_files(model, dir, sub);
  }
  install_arch_specs(model, arch_set);

  if (const auto* manifest = model.document("category_data/category_manifest.json");
      manifest != nullptr && manifest->IsObject()) {
    const auto it = manifest->FindMember("platform");
    if (it != manifest->MemberEnd() && it->value.IsString()) {
      model.set_property("platform", it->value.GetString());
    }
  }
  return model;
}

Model outline_analysis_directory(const fs::path& dir) {
  Model model;
  const fs::path manifest = dir / "category_data" / "category_manifest.json";
  std::error_code ec;
  if (fs::exists(manifest, ec)) {
    const std::string name = "category_data/category_manifest.json";
    try {
      model.set_document(name, parse_json_document(read_file(manifest)));
    } catch (const std::exception& e) {
      model.set_load_error(name, manifest.string() + ": " + e.what());
    }
  }
  for (const auto& path : files_with_extension(dir / "category_data", ".csv")) {
    model.set_table("category_data/" + path.filename().string(), std::make_shared<CsvTable>());
  }
  return model;
}

}  // namespace loupe::core
