#pragma once
// Where tests find their data: the bundled fixtures in tests/data, and the optional
// reference pack (../shared) for heavier parity tests.
#include <filesystem>
#include <optional>
#include <string>

namespace loupe::test {

// tests/data inside the source tree (always present).
std::filesystem::path bundled_data_dir();

// The reference pack, if present: $LOUPE_SHARED_DIR, else the directory configured at build
// time (<source>/../shared). Present only when data/traces/NOTICE.md exists below it.
std::optional<std::filesystem::path> shared_dir();

// Directory that shared_dir() looked for, for skip messages.
std::string shared_dir_description();

// A headless-capable chromium: $LOUPE_CHROMIUM, else /usr/bin/chromium, if it is executable.
std::optional<std::filesystem::path> chromium();

}  // namespace loupe::test

// Skips the current test case with a visible message when the reference pack is absent.
#define LOUPE_REQUIRE_SHARED_OR_SKIP(var)                                                     \
  const auto var##_opt = ::loupe::test::shared_dir();                                         \
  if (!var##_opt) {                                                                           \
    WARN("SKIPPED: reference pack not found at " << ::loupe::test::shared_dir_description()); \
    return;                                                                                   \
  }                                                                                           \
  const std::filesystem::path& var = *var##_opt
