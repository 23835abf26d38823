#include "test_paths.hpp"

#include <unistd.h>

#include <cstdlib>

namespace loupe::test {
namespace {
std::filesystem::path configured_shared_dir() {
  if (const char* env = std::getenv("LOUPE_SHARED_DIR"); env != nullptr && *env != '\0') {
    return env;
  }
  return LOUPE_SHARED_DIR_DEFAULT;
}
}  // namespace

std::filesystem::path bundled_data_dir() { return LOUPE_TESTS_DATA_DIR; }

std::optional<std::filesystem::path> shared_dir() {
  const auto dir = configured_shared_dir();
  std::error_code ec;
  if (std::filesystem::exists(dir / "data" / "traces" / "NOTICE.md", ec)) {
    return std::filesystem::weakly_canonical(dir, ec);
  }
  return std::nullopt;
}

std::string shared_dir_description() { return configured_shared_dir().string(); }

}  // namespace loupe::test

namespace loupe::test {

std::optional<std::filesystem::path> chromium() {
  const char* env = std::getenv("LOUPE_CHROMIUM");
  const std::filesystem::path path =
      env != nullptr && *env != '\0' ? std::filesystem::path(env) : "/usr/bin/chromium";
  if (::access(path.c_str(), X_OK) != 0) return std::nullopt;
  return path;
}

}  // namespace loupe::test
