#include "loupe/core/run/run_outputs.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include <rapidjson/document.h>

#include "loupe/core/util/json_guards.hpp"
#include "loupe/layout.hpp"

namespace loupe::core {

namespace fs = std::filesystem;

namespace {

void read_list(const rapidjson::Value& outputs, const char* key, std::vector<std::string>& out) {
  const auto it = outputs.FindMember(key);
  if (it == outputs.MemberEnd() || !it->value.IsArray()) return;
  for (const auto& v : it->value.GetArray()) {
    if (v.IsString()) out.emplace_back(v.GetString(), v.GetStringLength());
  }
}

// A recorded path is used only when it is relative, has no "..", and names a regular file
// (not a link) inside `dir`.
bool removable(const fs::path& dir, const std::string& relative, fs::path& target) {
  const fs::path rel(relative);
  if (rel.empty() || rel.is_absolute()) return false;
  for (const auto& part : rel) {
    if (part == ".." || part == ".") return false;
  }
  target = dir / rel;
  std::error_code ec;
  const auto status = fs::symlink_status(target, ec);
  return !ec && fs::is_regular_file(status);
}

// "<name>.tmp.XXXXXX": a temporary file of write_file_atomically left by a killed run.
bool is_leftover_temporary(const fs::path& path) {
  const std::string name = path.filename().string();
  const auto pos = name.rfind(".tmp.");
  return pos != std::string::npos && pos > 0 && name.size() == pos + 5 + 6;
}

// The directories Loupe writes into, relative to the output directory.
constexpr const char* kOutputDirs[] = {
    "",         "category_data",    "system_findings",         "category_findings",
    "metadata", "perf_report_csvs", "perf_report_trace1_csvs", "perf_report_trace2_csvs"};

std::size_t remove_leftover_temporaries(const fs::path& dir) {
  std::size_t removed = 0;
  for (const char* sub : kOutputDirs) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir / sub, ec)) {
      if (entry.is_regular_file(ec) && !entry.is_symlink(ec) &&
          is_leftover_temporary(entry.path()) && fs::remove(entry.path(), ec)) {
        ++removed;
      }
    }
  }
  return removed;
}

}  // namespace

RecordedOutputs recorded_outputs(const fs::path& dir) {
  RecordedOutputs out;
  std::ifstream in(dir / layout::kRunRecord, std::ios::binary);
  if (!in) return out;
  std::ostringstream text;
  text << in.rdbuf();
  const std::string bytes = text.str();
  if (json_nesting_exceeds(bytes)) return out;
  rapidjson::Document doc;
  doc.Parse(bytes.data(), bytes.size());
  if (doc.HasParseError() || !doc.IsObject()) return out;
  const auto it = doc.FindMember("outputs");
  if (it == doc.MemberEnd() || !it->value.IsObject()) return out;
  read_list(it->value, "prepared", out.prepared);
  read_list(it->value, "analysis", out.analysis);
  return out;
}

std::size_t remove_previous_run(const fs::path& dir, PreviousRunScope scope) {
  const RecordedOutputs recorded = recorded_outputs(dir);
  std::vector<std::string> names = recorded.analysis;
  if (scope == PreviousRunScope::Everything) {
    names.insert(names.end(), recorded.prepared.begin(), recorded.prepared.end());
  }
  std::size_t removed = remove_leftover_temporaries(dir);
  std::set<fs::path> parents;
  for (const auto& name : names) {
    fs::path target;
    if (!removable(dir, name, target)) continue;
    std::error_code ec;
    if (!fs::remove(target, ec) || ec) {
      throw std::runtime_error("cannot remove " + target.string() + " of the previous run: " +
                               (ec ? ec.message() : std::string("not removed")));
    }
    ++removed;
    for (fs::path p = target.parent_path();
         p != dir && p.has_relative_path() && p.string().size() > dir.string().size();
         p = p.parent_path()) {
      parents.insert(p);
    }
  }
  // Deepest first; fs::remove only removes empty directories.
  for (auto it = parents.rbegin(); it != parents.rend(); ++it) {
    std::error_code ec;
    fs::remove(*it, ec);
  }
  return removed;
}

}  // namespace loupe::core
