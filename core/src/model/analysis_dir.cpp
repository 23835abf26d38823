#include "loupe/core/model/analysis_dir.hpp"

#include <algorithm>
#include <fstream>
#include <vector>

#include "loupe/core/model/arch_specs.hpp"
#include "loupe/layout.hpp"

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

enum class FileKind { Document, Table };

// Which files of an analysis directory become the model, in loading order: folder, extension,
// and whether they are JSON documents or CSV tables. Direct children only.
struct LoadRule {
  const char* folder;
  const char* extension;
  FileKind kind;
};
constexpr LoadRule kLoadRules[] = {
    {"category_data", ".json", FileKind::Document},
    {"metadata", ".json", FileKind::Document},
    {"category_data", ".csv", FileKind::Table},
    {"perf_report_csvs", ".csv", FileKind::Table},
    {"perf_report_trace1_csvs", ".csv", FileKind::Table},
    {"perf_report_trace2_csvs", ".csv", FileKind::Table},
};

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

// Parses one file into the model under `name`; a file that does not parse is a load error
// reported under `shown_path`.
// A table the preparation built (`table`) is taken as it is.
void add_file(Model& model, FileKind kind, const std::string& name, std::string_view bytes,
              const fs::path& shown_path, std::shared_ptr<const CsvTable> table = nullptr) {
  try {
    if (kind == FileKind::Document) {
      model.set_document(name, parse_json_document(bytes));
    } else if (table) {
      model.set_table(name, std::move(table));
    } else {
      model.set_table(name, std::make_shared<const CsvTable>(parse_csv(bytes)));
    }
  } catch (const std::exception& e) {
    model.set_load_error(name, shown_path.string() + ": " + e.what());
  }
}

// The properties every loaded model carries: the directory, the bundled arch specs, and the
// manifest's platform.
void finish_model(Model& model, const fs::path& dir, ArchSet arch_set) {
  std::error_code ec;
  model.set_property("input_dir", fs::absolute(dir, ec).lexically_normal().string());
  install_arch_specs(model, arch_set);
  if (const auto* manifest = model.document(layout::kManifest);
      manifest != nullptr && manifest->IsObject()) {
    const auto it = manifest->FindMember("platform");
    if (it != manifest->MemberEnd() && it->value.IsString()) {
      model.set_property("platform", it->value.GetString());
    }
  }
}

}  // namespace

Model load_analysis_directory(const fs::path& dir, ArchSet arch_set) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw InputError(dir.string() + ": no such directory");
  if (!fs::is_directory(dir, ec)) throw InputError(dir.string() + ": not a directory");

  Model model;
  for (const auto& rule : kLoadRules) {
    for (const auto& path : files_with_extension(dir / rule.folder, rule.extension)) {
      const std::string name = std::string(rule.folder) + "/" + path.filename().string();
      std::string bytes;
      try {
        bytes = read_file(path);
      } catch (const std::exception& e) {
        model.set_load_error(name, path.string() + ": " + e.what());
        continue;
      }
      add_file(model, rule.kind, name, bytes, path);
    }
  }
  finish_model(model, dir, arch_set);
  return model;
}

Model load_analysis_files(const fs::path& dir, std::span<const AnalysisFile> files,
                          ArchSet arch_set) {
  Model model;
  for (const auto& rule : kLoadRules) {
    const std::string_view folder = rule.folder;
    std::vector<const AnalysisFile*> chosen;
    for (const auto& file : files) {
      const std::string_view rel = file.relative_path;
      if (rel.size() <= folder.size() + 1 || rel.substr(0, folder.size()) != folder ||
          rel[folder.size()] != '/') {
        continue;
      }
      const std::string_view filename = rel.substr(folder.size() + 1);
      if (filename.find('/') != std::string_view::npos) continue;
      if (fs::path(filename).extension() != rule.extension) continue;
      chosen.push_back(&file);
    }
    std::sort(chosen.begin(), chosen.end(), [](const AnalysisFile* a, const AnalysisFile* b) {
      return a->relative_path < b->relative_path;
    });
    for (const auto* file : chosen) {
      add_file(model, rule.kind, std::string(file->relative_path), file->bytes,
               dir / fs::path(file->relative_path), file->table);
    }
  }
  finish_model(model, dir, arch_set);
  return model;
}

Model outline_analysis_directory(const fs::path& dir) {
  Model model;
  const fs::path manifest = dir / "category_data" / "category_manifest.json";
  std::error_code ec;
  if (fs::exists(manifest, ec)) {
    const std::string name = layout::kManifest;
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
